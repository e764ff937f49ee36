// The three.js scene of a run (run_files.js's loadRun): each body's shape
// (a free body posed by bodies.csv, a fixed one by shapes.json's pose_w_b),
// its frame (axes: x red, y green, z blue), each free body's centre-of-mass
// path, and the contact markers of a frame: points, normals and 6D ellipses
// coloured by magnitude (blue low, red high, relative to the run's largest).
// The world is z-up.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { groupMarkers } from './run_files.js';

const kEllipseSegments = 32;
const kDetailFloor = 4096;  // setDetail never draws fewer points of a cloud

// Blue -> green -> red for s in [0, 1].
function ramp(s, colour) {
  const x = Math.min(1, Math.max(0, s));
  return colour.setRGB(x < 0.5 ? 0 : 2 * x - 1, x < 0.5 ? 2 * x : 2 - 2 * x, x < 0.5 ? 1 - 2 * x : 0);
}

// A distinct colour per patch index (golden-angle hues).
function patchColour(p, colour) {
  return colour.setHSL((p * 0.381966) % 1, 0.55, 0.55);
}

// Whether WebGL draws in software (SwiftShader, llvmpipe: a machine without
// a GPU, or headless Chromium), where antialiasing alone costs half the
// frame rate: the renderer then goes without it.
function softwareRenderer() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return /SwiftShader|llvmpipe|softpipe|software/i.test(String(name));
}

// A point cloud's vertices in a fixed pseudo-random order (Fisher-Yates,
// xorshift32 from a fixed seed), so that any first n of them are a uniform
// subset: the detail level draws a prefix (SceneView.setDetail).
function shuffled(geometry) {
  const count = geometry.getAttribute('position').count, order = new Uint32Array(count);
  for (let i = 0; i < count; ++i) order[i] = i;
  let state = 0x9e3779b9;
  for (let i = count - 1; i > 0; --i) {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
    const j = (state >>> 0) % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const [name, attribute] of Object.entries(geometry.attributes)) {
    const size = attribute.itemSize, from = attribute.array, to = new from.constructor(from.length);
    for (let i = 0; i < count; ++i) for (let c = 0; c < size; ++c) to[size * i + c] = from[size * order[i] + c];
    geometry.setAttribute(name, new THREE.BufferAttribute(to, size, attribute.normalized));
  }
  return geometry;
}

function meshOf(shape) {
  const geometry = shape.mesh;
  if (!geometry.index) {  // a point cloud (no faces)
    const cloud = new THREE.Points(shuffled(geometry), new THREE.PointsMaterial({ color: 0x3060c0, size: 2, sizeAttenuation: false }));
    cloud.userData.pointCloud = true;
    return cloud;
  }
  if (!geometry.getAttribute('normal')) geometry.computeVertexNormals();
  const patch = geometry.getAttribute('patch');
  if (patch) {  // shown when "patches" is on (showPatches)
    const colours = new Float32Array(3 * patch.count), colour = new THREE.Color();
    for (let i = 0; i < patch.count; ++i) patchColour(patch.getX(i), colour).toArray(colours, 3 * i);
    geometry.setAttribute('color', new THREE.BufferAttribute(colours, 3));
  }
  const colour = shape.fixed ? 0xb0b0b0 : 0xd08040;
  const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: colour, roughness: 0.8, side: THREE.DoubleSide,
                                                                        transparent: shape.fixed, opacity: shape.fixed ? 0.7 : 1 }));
  mesh.userData.colour = colour;
  return mesh;
}

export class SceneView {
  constructor(container, run) {
    this.run = run;
    this.renderer = new THREE.WebGLRenderer({ antialias: !softwareRenderer(), preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    container.appendChild(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xf4f4f4);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x606060, 2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.5);
    sun.position.set(1, -2, 3);
    this.scene.add(sun);

    const box = new THREE.Box3();
    this.free = new Map();  // name -> Object3D posed per frame
    for (const shape of run.shapes) {
      const object = new THREE.Group();
      object.name = shape.name;
      if (shape.mesh) object.add(meshOf(shape));
      shape.mesh?.computeBoundingSphere();
      object.userData.radius = shape.mesh?.boundingSphere?.radius ?? 0.05;
      if (shape.fixed) {
        const E = shape.pose ?? [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
        object.matrixAutoUpdate = false;
        object.matrix.set(...E.flat());
        if (shape.mesh && shape.geometry !== 'plane')  // a plane's square would set the view's size
          box.union(new THREE.Box3().setFromBufferAttribute(shape.mesh.getAttribute('position')).applyMatrix4(object.matrix));
      } else {
        this.free.set(shape.name, object);
      }
      this.scene.add(object);
    }
    for (const body of run.frames.bodies) {
      const points = [];
      for (let k = 0; k < run.frames.times.length; ++k) points.push(new THREE.Vector3().fromArray(body.position, 3 * k));
      const path = new THREE.Line(new THREE.BufferGeometry().setFromPoints(points), new THREE.LineBasicMaterial({ color: 0x804000 }));
      this.scene.add(path);
      const shape = run.shapes.find((s) => s.name === body.name);
      const radius = shape.mesh?.boundingSphere?.radius ?? 0.05;
      for (const p of points) box.expandByPoint(p.clone().addScalar(radius)).expandByPoint(p.clone().addScalar(-radius));
    }
    if (box.isEmpty()) box.setFromCenterAndSize(new THREE.Vector3(), new THREE.Vector3(1, 1, 1));
    this.extent = box.getSize(new THREE.Vector3()).length();
    for (const object of this.scene.children.filter((o) => o.isGroup))  // body axes, a plane's no larger than the view
      object.add(new THREE.AxesHelper(0.6 * Math.min(object.userData.radius, this.extent / 4)));

    this.maxMagnitude = run.contacts?.maxMagnitude ?? 0;
    const maxMarkers = run.contacts?.maxCount ?? 0;
    this.markerPoints = this.buffer(THREE.Points, maxMarkers, new THREE.PointsMaterial({ size: 8, sizeAttenuation: false, vertexColors: true }));
    this.normals = this.buffer(THREE.LineSegments, 2 * maxMarkers, new THREE.LineBasicMaterial({ vertexColors: true }));
    this.ellipses = this.buffer(THREE.LineSegments, 2 * kEllipseSegments * maxMarkers, new THREE.LineBasicMaterial({ vertexColors: true }));
    this.group = null;  // the contact group shown

    const centre = box.getCenter(new THREE.Vector3());
    this.camera = new THREE.PerspectiveCamera(40, 1, this.extent / 1000, this.extent * 100);
    this.camera.up.set(0, 0, 1);
    this.camera.position.copy(centre).add(new THREE.Vector3(0.9, -1.4, 0.8).multiplyScalar(this.extent));
    this.orbit = new OrbitControls(this.camera, this.renderer.domElement);
    this.orbit.target.copy(centre);
    this.orbit.update();
    this.resize(container);
    new ResizeObserver(() => this.resize(container)).observe(container);
  }

  // Points or segments with room for `count` vertices, drawn up to their
  // draw range, over the bodies (no depth test, drawn last): a contact lies
  // between two bodies and would be hidden by them.
  buffer(Kind, count, material) {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * Math.max(1, count)), 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(3 * Math.max(1, count)), 3));
    geometry.setDrawRange(0, 0);
    material.depthTest = false;
    const object = new Kind(geometry, material);
    object.renderOrder = 1;
    object.frustumCulled = false;
    this.scene.add(object);
    return object;
  }

  resize(container) {
    const width = container.clientWidth || 800, height = container.clientHeight || 600;
    this.renderer.setSize(width, height);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
  }

  // The contact group of frame k: the last contact time in (t_{k-1}, t_k]
  // (t_k for the smooth model, whose rows are the frames'), or null.
  groupAt(k) {
    const times = this.run.frames.times;
    const groups = this.run.contacts?.groups ?? [];
    const from = k > 0 ? times[k - 1] : -Infinity, to = times[k];
    let lo = 0, hi = groups.length;  // groups ascend: the first with time > to
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (groups[mid].time <= to) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && groups[lo - 1].time > from ? groups[lo - 1] : null;
  }

  // The markers drawn (as objects: point, normal, magnitude, ...).
  get markers() {
    return this.group ? groupMarkers(this.group) : [];
  }

  showFrame(k) {
    const frames = this.run.frames;
    for (const body of frames.bodies) {
      const object = this.free.get(body.name);
      object.position.fromArray(body.position, 3 * k);
      const q = body.quaternion;
      object.quaternion.set(q[4 * k + 1], q[4 * k + 2], q[4 * k + 3], q[4 * k]);
    }
    this.group = this.groupAt(k);
    const points = this.markerPoints.geometry, normals = this.normals.geometry, ellipses = this.ellipses.geometry;
    const binary = Boolean(this.group?.floats);
    const [e, n] = binary ? this.showSamples(this.group) : this.showMarkers(this.markers);
    points.setDrawRange(0, binary ? this.group.count : this.markers.length);
    normals.setDrawRange(0, n);
    ellipses.setDrawRange(0, e);
    for (const g of [points, normals, ellipses]) {
      g.attributes.position.needsUpdate = true;
      g.attributes.color.needsUpdate = true;
    }
  }

  // samples.bin's group straight from its floats (x, y, z, traction): points
  // only. No ellipse or normal vertices.
  showSamples(group) {
    const position = this.markerPoints.geometry.attributes.position.array;
    const colours = this.markerPoints.geometry.attributes.color.array, colour = new THREE.Color();
    const f = group.floats, scale = this.maxMagnitude > 0 ? 1 / this.maxMagnitude : 0;
    for (let i = 0, at = group.offset; i < group.count; ++i, at += 4) {
      position[3 * i] = f[at], position[3 * i + 1] = f[at + 1], position[3 * i + 2] = f[at + 2];
      ramp(f[at + 3] * scale, colour).toArray(colours, 3 * i);
    }
    return [0, 0];
  }

  // Marker objects (the CSV files'): points, normals and 6D ellipses. The
  // ellipse and normal vertices written.
  showMarkers(markers) {
    const length = 0.08 * this.extent, colour = new THREE.Color();
    const points = this.markerPoints.geometry, normals = this.normals.geometry, ellipses = this.ellipses.geometry;
    let e = 0, n = 0;
    markers.forEach((m, i) => {
      ramp(this.maxMagnitude > 0 ? m.magnitude / this.maxMagnitude : 0, colour);
      points.attributes.position.setXYZ(i, ...m.point);
      points.attributes.color.setXYZ(i, colour.r, colour.g, colour.b);
      if (!m.normal) return;
      normals.attributes.position.setXYZ(n, ...m.point);
      normals.attributes.position.setXYZ(n + 1, m.point[0] + length * m.normal[0], m.point[1] + length * m.normal[1],
                                         m.point[2] + length * m.normal[2]);
      normals.attributes.color.setXYZ(n, colour.r, colour.g, colour.b);
      normals.attributes.color.setXYZ(n + 1, colour.r, colour.g, colour.b);
      n += 2;
      if (!m.semi) return;
      const at = (j) => {
        const a = (2 * Math.PI * j) / kEllipseSegments, cu = m.semi[0] * Math.cos(a), sw = m.semi[1] * Math.sin(a);
        return [0, 1, 2].map((c) => m.point[c] + cu * m.u[c] + sw * m.w[c]);
      };
      for (let j = 0; j < kEllipseSegments; ++j, e += 2) {
        ellipses.attributes.position.setXYZ(e, ...at(j));
        ellipses.attributes.position.setXYZ(e + 1, ...at(j + 1));
        ellipses.attributes.color.setXYZ(e, colour.r, colour.g, colour.b);
        ellipses.attributes.color.setXYZ(e + 1, colour.r, colour.g, colour.b);
      }
    });
    return [e, n];
  }

  // Detail level L >= 0: each point cloud of more than kDetailFloor points
  // draws its first ceil(n / 2^L) (a uniform subset, shuffled), at least
  // kDetailFloor; 0 draws every point. The points drawn, over all clouds.
  setDetail(level) {
    let drawn = 0;
    this.scene.traverse((object) => {
      if (!object.userData.pointCloud) return;
      const count = object.geometry.getAttribute('position').count;
      const shown = count <= kDetailFloor ? count : Math.max(kDetailFloor, Math.ceil(count / 2 ** level));
      object.geometry.setDrawRange(0, shown);
      drawn += shown;
    });
    this.pointsDrawn = drawn;
    return drawn;
  }

  // Per point cloud (for tests): its points, those drawn, and the bounding
  // boxes (body frame) of all of them and of the drawn ones.
  pointClouds() {
    const clouds = [];
    this.scene.traverse((object) => {
      if (!object.userData.pointCloud) return;
      const position = object.geometry.getAttribute('position'), drawn = Math.min(object.geometry.drawRange.count, position.count);
      const box = (n) => new THREE.Box3().setFromBufferAttribute(
        new THREE.BufferAttribute(position.array.subarray(0, 3 * n), 3));
      const all = box(position.count), shown = box(drawn);
      clouds.push({ count: position.count, drawn, box: [all.min.toArray(), all.max.toArray()],
                    drawnBox: [shown.min.toArray(), shown.max.toArray()] });
    });
    return clouds;
  }

  // Colours each surface by patch (on) or in one colour (off).
  showPatches(on) {
    this.patchesShown = on;
    this.scene.traverse((object) => {
      if (object.isMesh && object.geometry.getAttribute('patch')) {
        object.material.vertexColors = on;
        object.material.color.set(on ? 0xffffff : object.userData.colour);
        object.material.needsUpdate = true;
      }
    });
  }

  // Per body with patches: how many distinct patch colours its mesh has (for tests).
  patchColours() {
    const counts = {};
    for (const child of this.scene.children) {
      child.traverse((object) => {
        const colour = object.isMesh && object.geometry.getAttribute('color');
        if (!colour || !object.geometry.getAttribute('patch')) return;
        const seen = new Set();
        for (let i = 0; i < colour.count; ++i) seen.add(`${colour.getX(i)},${colour.getY(i)},${colour.getZ(i)}`);
        counts[child.name] = seen.size;
      });
    }
    return counts;
  }

  render() {
    this.renderer.render(this.scene, this.camera);
  }
}
