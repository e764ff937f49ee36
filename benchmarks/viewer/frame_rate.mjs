// The run viewer's frame rate on a run (issue 33 item 2), in headless
// Chromium (Debian's, or $CONTACTREF_CHROMIUM; WebGL on SwiftShader, the CPU:
// what a machine without a GPU gets, a floor for one with a GPU), driven by
// tests/browser's puppeteer-core. Opens URL (`contactref view RUN`), then:
//  - load: seconds from the page's request to the run shown, and the JS heap;
//  - playing at 1x with the point budget (viewer/src/main.js), and with
//    "all points" ticked: the median over SECONDS of the page's frames per
//    second, and the points drawn at the end;
//  - the cost of one frame change in JS (setFrame: the poses, the markers'
//    buffers, the draw call), over 200 frames spread over the run.
// Prints one JSON line. Usage: node frame_rate.mjs URL [SECONDS]
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../tests/browser/package.json'));
const puppeteer = require('puppeteer-core');
const [url, seconds = '8'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node frame_rate.mjs URL [SECONDS]');
  process.exit(2);
}
const browser = await puppeteer.launch({
  executablePath: process.env.CONTACTREF_CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--window-size=1000,700'],
  defaultViewport: { width: 1000, height: 700 }, protocolTimeout: 600000,
});
try {
  const page = await browser.newPage();
  page.on('console', (message) => { if (message.type() === 'error') console.error(`console: ${message.text()}`); });
  const start = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => window.contactrefViewer?.ready || window.contactrefViewer?.error,
                             { timeout: 600000, polling: 100 });
  const loadSeconds = (Date.now() - start) / 1000;
  const error = await page.evaluate(() => window.contactrefViewer.error);
  if (error) throw new Error(`the page reports: ${error}`);
  const heapMB = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null));
  const frames = await page.evaluate(() => window.contactrefViewer.times.length);

  // Plays from the start for `seconds`, sampling the page's fps each second.
  const play = async (allPoints) => {
    await page.evaluate((all) => {
      document.getElementById('all-points').checked = all;
      window.contactrefViewer.setFrame(0);
    }, allPoints);
    await page.click('#play');
    const samples = [];
    for (let s = 0; s < Number(seconds); ++s) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      samples.push(await page.evaluate(() => window.contactrefViewer.fps));
    }
    const points = await page.evaluate(() => window.contactrefViewer.state().pointsDrawn);
    await page.click('#play');  // pause
    samples.sort((a, b) => a - b);
    return { fps_median: samples[Math.floor(samples.length / 2)], fps_samples: samples, points_drawn: points };
  };
  const budget = await play(false);
  const all = await play(true);
  const setFrameMs = await page.evaluate((n) => {
    const api = window.contactrefViewer, t = performance.now();
    for (let i = 0; i < 200; ++i) api.setFrame(Math.floor((i * (n - 1)) / 199));
    return (performance.now() - t) / 200;
  }, frames);
  const totalPoints = await page.evaluate(() => window.contactrefViewer.state().pointsDrawn);
  console.log(JSON.stringify({ url, frames, load_seconds: loadSeconds, heap_MB: heapMB, points: totalPoints,
                               playing_with_budget: budget, playing_all_points: all, set_frame_ms: setFrameMs }));
} finally {
  await browser.close();
}
