// contactref's run viewer (issue 33): opens the folder of the URL's ?run=
// (`contactref view DIR` serves DIR at run/) or one chosen with the picker,
// and plays it. Its state is on window.contactrefViewer for tests
// (tests/browser/viewer_page_check.mjs): ready, error, times, setFrame(k),
// and state(), read off the scene's own objects (with the frame rate and
// the points drawn under the point budget, below). "patches" colours each
// surface by the patch its triangles lie on.
import { httpSource, loadRun, pickedSource } from './run_files.js';
import { SceneView } from './scene_view.js';
import { Playback } from './controls.js';

const element = (id) => document.getElementById(id);
const api = { ready: false, error: null, times: [], fps: 0 };
window.contactrefViewer = api;
let view = null, playback = null;

function fail(error) {
  api.error = error.message;
  const box = element('error');
  box.textContent = `The run cannot be shown: ${error.message}`;
  box.hidden = false;
  console.warn(`contactref viewer: ${error.message}`);
}

async function open(source, label) {
  try {
    const run = await loadRun(source);
    element('error').hidden = true;
    element('view').replaceChildren();
    view = new SceneView(element('view'), run);
    playback = new Playback(run.frames.times, { play: element('play'), slider: element('slider'), speed: element('speed'),
                                                time: element('time') }, (k) => view.showFrame(k));
    playback.setFrame(0);
    view.setDetail(0);
    view.showPatches(element('patches').checked);
    const status = run.summary.status ?? '?';
    element('title').textContent = `${label}: ${run.summary.model?.type ?? 'smooth'} run, ${status}`;
    element('legend').textContent = run.contacts
      ? `contacts coloured by magnitude, 0 to ${view.maxMagnitude.toPrecision(3)} ${run.contacts.unit}` : '';
    api.times = run.frames.times;
    api.error = null;
    api.ready = true;
  } catch (error) {
    fail(error);
  }
}

api.setFrame = (k) => {
  playback.setPlaying(false);
  playback.setFrame(k);
  view.render();
};
api.setDetail = (level) => view.setDetail(level);  // for tests: the point budget's level, until the next frame plays
api.state = () => ({
  frame: playback.frame,
  time: playback.times[playback.frame],
  bodies: [...view.free].map(([name, object]) => ({
    name,
    position: object.position.toArray(),
    quaternion: [object.quaternion.w, object.quaternion.x, object.quaternion.y, object.quaternion.z],
  })),
  contacts: view.markers.map((m, i) => {
    const at = view.markerPoints.geometry.attributes.position;  // as drawn (float32)
    return { drawn: [at.getX(i), at.getY(i), at.getZ(i)], point: m.point, normal: m.normal };
  }),
  fps: api.fps,
  pointsDrawn: view.pointsDrawn,
  pointClouds: view.pointClouds(),
  patchesShown: view.patchesShown,
  patchColours: view.patchColours(),
});

// The point budget: while a run plays, frames slower than 1/30 s (averaged
// over the last few) halve the points drawn of each large point cloud
// (SceneView.setDetail), and frames faster than 1/45 s double them again;
// paused or scrubbed, or with "all points" ticked, every point is drawn. So
// a run stays smooth where the renderer is slow (software WebGL), and is
// whole when looked at.
const kSlowFrame = 1000 / 30, kFastFrame = 1000 / 45, kMaxDetailLevel = 6;
let last = performance.now(), frames = 0, since = last, mean = 0, detail = 0;
function animate(now) {
  if (view) {
    playback.tick((now - last) / 1000);
    mean = 0.8 * mean + 0.2 * (now - last);
    const adapting = playback.playing && !element('all-points').checked;
    let level = adapting ? detail : 0;
    if (adapting && mean > kSlowFrame && level < kMaxDetailLevel) ++level, mean = kSlowFrame;
    else if (adapting && mean < kFastFrame && level > 0) --level, mean = kSlowFrame;
    if (level !== detail) view.setDetail((detail = level));
    view.render();
    ++frames;
    if (now - since >= 1000) {
      api.fps = (1000 * frames) / (now - since);
      frames = 0;
      since = now;
    }
  }
  last = now;
  requestAnimationFrame(animate);
}
requestAnimationFrame(animate);

element('patches').addEventListener('change', (event) => view?.showPatches(event.target.checked));
element('folder').addEventListener('change', (event) => {
  const files = event.target.files;
  if (files.length) open(pickedSource(files), files[0].webkitRelativePath.split('/')[0]);
});
const run = new URLSearchParams(window.location.search).get('run');
if (run) open(httpSource(new URL(run.endsWith('/') ? run : `${run}/`, window.location.href)), run);
else element('time').textContent = 'choose a run folder (contactref simulate --out)';
