// contactref's run viewer (issue 33): opens the folder of the URL's ?run=
// (`contactref view DIR` serves DIR at run/) or one chosen with the picker,
// and plays it. Its state is on window.contactrefViewer for tests
// (tests/browser/viewer_page_check.mjs): ready, error, times, setFrame(k),
// and state(), read off the scene's own objects. "patches" colours each
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
  patchesShown: view.patchesShown,
  patchColours: view.patchColours(),
});

let last = performance.now(), frames = 0, since = last;
function animate(now) {
  if (view) {
    playback.tick((now - last) / 1000);
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
