// Reads a `contactref simulate` output folder (validation/app/run_folder.hpp
// says what it holds): summary.json, shapes.json with each body's PLY,
// bodies.csv and contacts.csv (or the quasi-rigid model's samples.bin).
// `source` reads a path relative to the folder: text(path) and bytes(path),
// each rejecting with an Error naming the path.
// Every missing or damaged file becomes an Error that names it.
import { Float32BufferAttribute } from 'three';
import { PLYLoader } from 'three/addons/loaders/PLYLoader.js';

// RFC 4180: quoted cells may hold commas, doubled quotes and line breaks.
export function parseCsv(text, name) {
  const rows = [];
  let row = [], cell = '', quoted = false, closed = false, line = 1, rowLine = 1;
  const lines = [];
  const endRow = () => {
    row.push(cell);
    rows.push(row);
    lines.push(rowLine);
    row = [];
    cell = '';
    closed = false;
  };
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; ++i; }
      else if (c === '"') { quoted = false; closed = true; }
      else { if (c === '\n') ++line; cell += c; }
    } else if (c === ',') { row.push(cell); cell = ''; closed = false; }
    else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') ++i;
      endRow();
      rowLine = ++line;
    } else if (closed) throw new Error(`${name}:${line}: text after a closing quote`);
    else if (c === '"' && cell === '') quoted = true;
    else cell += c;
  }
  if (quoted) throw new Error(`${name}:${rowLine}: a quoted cell is not closed (a truncated file)`);
  if (cell !== '' || row.length || closed) endRow();
  if (!rows.length || (rows[0].length === 1 && rows[0][0] === '')) throw new Error(`${name}: no header (an empty file)`);
  const header = rows[0];
  const records = [];
  for (let r = 1; r < rows.length; ++r) {
    if (rows[r].length !== header.length)
      throw new Error(`${name}:${lines[r]}: ${rows[r].length} cells where the header has ${header.length} (a truncated or damaged row)`);
    records.push({ line: lines[r], cells: rows[r] });
  }
  return { header, records };
}

// The columns' indices; an Error naming the first one the header lacks.
function columns(table, name, wanted) {
  const at = {};
  for (const column of wanted) {
    const i = table.header.indexOf(column);
    if (i < 0) throw new Error(`${name}: the header has no column ${column}`);
    at[column] = i;
  }
  return at;
}

// A finite number from a cell, or an Error naming the file, line and column.
function number(record, column, at, name) {
  const text = record.cells[at[column]];
  const x = text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(x)) throw new Error(`${name}:${record.line}: column ${column}: "${text}" is not a finite number`);
  return x;
}

async function json(source, path) {
  const text = await source.text(path);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not valid JSON (${error.message})`);
  }
}

// The run's frames: its output times, and each free body's pose at each
// (its row at that time, or its last row before it).
function readFrames(text, name) {
  const table = parseCsv(text, name);
  const at = columns(table, name, ['time', 'body', 'x', 'y', 'z', 'qw', 'qx', 'qy', 'qz']);
  if (!table.records.length) throw new Error(`${name}: no rows (the run wrote none)`);
  const times = [];
  const rowsByBody = new Map();
  for (const record of table.records) {
    const time = number(record, 'time', at, name);
    if (times.length && time < times[times.length - 1]) throw new Error(`${name}:${record.line}: time goes back`);
    if (!times.length || time > times[times.length - 1]) times.push(time);
    const body = record.cells[at.body];
    if (!rowsByBody.has(body)) rowsByBody.set(body, []);
    rowsByBody.get(body).push({
      frame: times.length - 1,
      position: ['x', 'y', 'z'].map((c) => number(record, c, at, name)),
      quaternion: ['qw', 'qx', 'qy', 'qz'].map((c) => number(record, c, at, name)),
    });
  }
  const bodies = [];
  for (const [body, rows] of rowsByBody) {
    const position = new Float64Array(3 * times.length), quaternion = new Float64Array(4 * times.length);
    let k = 0;
    for (let frame = 0; frame < times.length; ++frame) {
      while (k + 1 < rows.length && rows[k + 1].frame <= frame) ++k;
      position.set(rows[k].position, 3 * frame);
      quaternion.set(rows[k].quaternion, 4 * frame);
    }
    bodies.push({ name: body, position, quaternion });
  }
  return { times, bodies };
}

// Markers grouped by ascending time; `marker(record)` makes a record's, or null.
function groupByTime(table, name, at, marker) {
  const groups = [];
  for (const record of table.records) {
    const time = number(record, 'time', at, name);
    if (groups.length && time < groups[groups.length - 1].time) throw new Error(`${name}:${record.line}: time goes back`);
    if (!groups.length || time > groups[groups.length - 1].time) groups.push({ time, markers: [] });
    const m = marker(record);
    if (m) groups[groups.length - 1].markers.push(m);
  }
  return groups;
}

// The quasi-rigid model's contacts.csv: its loaded samples per step, each
// coloured by its traction (Pa).
function readSamples(table, name) {
  const at = columns(table, name, ['time', 'x', 'y', 'z', 'nx', 'ny', 'nz', 'pressure']);
  const vector = (record, names) => names.map((c) => number(record, c, at, name));
  const groups = groupByTime(table, name, at, (record) => ({
    kind: 'sample', point: vector(record, ['x', 'y', 'z']), normal: vector(record, ['nx', 'ny', 'nz']),
    magnitude: number(record, 'pressure', at, name),
  }));
  return { groups, unit: 'Pa' };
}

// contacts.csv as markers grouped by time: the smooth model's one contact
// per row (empty in flight), the 6D and point models' joints, each with its
// point, unit normal, magnitude (the normal force, or the step impulse's
// norm) and, for a 6D patch, its ellipse (axes u, w and semi-axes), or the
// quasi-rigid model's samples (readSamples).
function readContacts(text, name) {
  const table = parseCsv(text, name);
  if (table.header.includes('pressure')) return readSamples(table, name);
  const smooth = table.header.includes('normal_force');
  const wanted = smooth ? ['time', 'px', 'py', 'pz', 'nx', 'ny', 'nz', 'normal_force']
                        : ['time', 'kind', 'x', 'y', 'z', 'nx', 'ny', 'nz', 'ux', 'uy', 'uz', 'wx', 'wy', 'wz',
                           'semi_a', 'semi_b', 'force_u', 'force_w', 'force_n'];
  const at = columns(table, name, wanted);
  const groups = groupByTime(table, name, at, (record) => {
    const vector = (names) => names.map((c) => number(record, c, at, name));
    if (smooth) {
      if (record.cells[at.px] === '') return null;  // in flight
      return { kind: 'smooth', point: vector(['px', 'py', 'pz']), normal: vector(['nx', 'ny', 'nz']),
               magnitude: Math.abs(number(record, 'normal_force', at, name)) };
    }
    const kind = record.cells[at.kind];
    if (kind !== 'volume-6d' && kind !== 'point') return null;  // a joint is no contact
    const force = vector(['force_u', 'force_w', 'force_n']);
    const marker = { kind, point: vector(['x', 'y', 'z']), normal: vector(['nx', 'ny', 'nz']), magnitude: Math.hypot(...force) };
    if (kind === 'volume-6d') {
      marker.u = vector(['ux', 'uy', 'uz']);
      marker.w = vector(['wx', 'wy', 'wz']);
      marker.semi = vector(['semi_a', 'semi_b']);
    }
    return marker;
  });
  return { groups, unit: smooth ? 'N' : 'N s' };
}

// The frame's markers of a group: its own list (the CSV files), or made from
// samples.bin's floats (x, y, z, traction) when asked, one frame at a time.
export function groupMarkers(group) {
  if (group.markers) return group.markers;
  const markers = [];
  for (let i = 0; i < group.count; ++i) {
    const at = group.offset + 4 * i, f = group.floats;
    markers.push({ kind: 'sample', point: [f[at], f[at + 1], f[at + 2]], normal: null, magnitude: f[at + 3] });
  }
  return markers;
}

// samples.bin (validation/app/samples_file.hpp): "CRSMPL01", then per step
// its time (float64), its count n (uint32) and n x (x, y, z, traction)
// float32, little-endian. The floats stay in the file's buffer (16 bytes a
// sample: the foot's 1,451 loaded samples over 10,000 steps are 232 MB);
// each group points into it.
function readSampleFile(buffer, name) {
  const bytes = new Uint8Array(buffer);
  if (bytes.length < 8 || String.fromCharCode(...bytes.subarray(0, 8)) !== 'CRSMPL01')
    throw new Error(`${name}: not a samples file (it does not start with CRSMPL01)`);
  if (bytes.length % 4) throw new Error(`${name}: ${bytes.length} bytes, not a whole number of records (a truncated file)`);
  const view = new DataView(buffer), floats = new Float32Array(buffer), groups = [];
  let maxMagnitude = 0, maxCount = 0;
  for (let at = 8; at < bytes.length;) {
    const where = `${name}: step record ${groups.length} at byte ${at}`;
    if (bytes.length - at < 12) throw new Error(`${where}: truncated (its time and count need 12 bytes)`);
    const time = view.getFloat64(at, true), count = view.getUint32(at + 8, true);
    if (!Number.isFinite(time)) throw new Error(`${where}: the time is not finite`);
    if (groups.length && time < groups[groups.length - 1].time) throw new Error(`${where}: the time ${time} goes back`);
    at += 12;
    if ((bytes.length - at) / 16 < count) throw new Error(`${where}: ${count} samples need ${16 * count} bytes (a truncated file)`);
    const offset = at / 4;
    for (let k = offset; k < offset + 4 * count; ++k)
      if (!Number.isFinite(floats[k])) throw new Error(`${where}: sample ${Math.floor((k - offset) / 4)} is not finite`);
    for (let k = offset + 3; k < offset + 4 * count; k += 4) maxMagnitude = Math.max(maxMagnitude, floats[k]);
    maxCount = Math.max(maxCount, count);
    groups.push({ time, floats, offset, count });
    at += 16 * count;
  }
  return { groups, unit: 'Pa', maxMagnitude, maxCount };
}

// The largest magnitude and marker count of the CSV files' groups.
function withExtremes(contacts) {
  let maxMagnitude = 0, maxCount = 0;
  for (const group of contacts.groups) {
    maxCount = Math.max(maxCount, group.markers.length);
    for (const m of group.markers) maxMagnitude = Math.max(maxMagnitude, m.magnitude);
  }
  return { ...contacts, maxMagnitude, maxCount };
}

export async function loadRun(source) {
  const summary = await json(source, 'summary.json');
  const files = summary.files;
  if (!files || typeof files !== 'object') throw new Error('summary.json: no "files" object (not a simulate run?)');
  for (const key of ['bodies', 'shapes'])
    if (typeof files[key] !== 'string') throw new Error(`summary.json: files.${key} is missing (not a simulate run?)`);
  const manifest = await json(source, files.shapes);
  if (!Array.isArray(manifest.bodies)) throw new Error(`${files.shapes}: no "bodies" array`);
  const plain = new PLYLoader(), withPatches = new PLYLoader();
  withPatches.setCustomPropertyNameMapping({ patch: ['patch'] });  // a surface's vertices name their patch
  const shapes = [];
  for (const body of manifest.bodies) {
    const shape = { name: body.name, geometry: body.geometry, fixed: !!body.fixed, pose: body.pose_w_b ?? null,
                    mesh: null, why: body.why ?? null, patches: body.patches ?? 0 };
    if (body.file) {
      const bytes = await source.bytes(body.file);
      try {
        shape.mesh = (shape.patches ? withPatches : plain).parse(bytes);
      } catch (error) {
        throw new Error(`${body.file}: not a PLY file three.js can read (${error.message})`);
      }
      if (!shape.mesh.getAttribute('position')?.count) throw new Error(`${body.file}: no vertices`);
      const patch = shape.mesh.getAttribute('patch');
      if (shape.patches && !(patch && Array.from(patch.array).every((p) => Number.isInteger(p) && p >= 0 && p < shape.patches)))
        throw new Error(`${body.file}: its vertices do not name patches 0 to ${shape.patches - 1} (${files.shapes} says ${shape.patches})`);
      for (const [name, attribute] of Object.entries(shape.mesh.attributes)) {  // the shapes are doubles; WebGL takes float32
        if (attribute.array instanceof Float64Array)
          shape.mesh.setAttribute(name, new Float32BufferAttribute(Float32Array.from(attribute.array), attribute.itemSize));
      }
    }
    shapes.push(shape);
  }
  const frames = readFrames(await source.text(files.bodies), files.bodies);
  for (const body of frames.bodies) {
    if (!shapes.some((s) => s.name === body.name))
      throw new Error(`${files.bodies}: body "${body.name}" is not in ${files.shapes}`);
  }
  const contacts = typeof files.samples === 'string' ? readSampleFile(await source.bytes(files.samples), files.samples)
    : typeof files.contacts === 'string' ? withExtremes(readContacts(await source.text(files.contacts), files.contacts))
    : null;
  return { summary, shapes, frames, contacts };
}

// Reads over HTTP relative to `base` (the URL's run folder).
export function httpSource(base) {
  const get = async (path) => {
    const response = await fetch(new URL(path, base));
    if (!response.ok) throw new Error(`${path}: missing (HTTP ${response.status})`);
    return response;
  };
  return {
    text: async (path) => (await get(path)).text(),
    bytes: async (path) => (await get(path)).arrayBuffer(),
  };
}

// Reads from a folder chosen with the file picker (its files' relative paths).
export function pickedSource(fileList) {
  const files = new Map();
  for (const file of fileList) files.set(file.webkitRelativePath.split('/').slice(1).join('/'), file);
  const get = (path) => {
    const file = files.get(path);
    if (!file) throw new Error(`${path}: missing from the chosen folder`);
    return file;
  };
  return { text: async (path) => get(path).text(), bytes: async (path) => get(path).arrayBuffer() };
}
