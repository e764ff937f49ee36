// Opens the run viewer (viewer/, served by `contactref view RUN`) at URL in
// headless Chromium (Debian's, or $CONTACTREF_CHROMIUM, driven by
// puppeteer-core), and checks from the page's own state
// (window.contactrefViewer) against RUN's files, read here independently:
//  - the frames are bodies.csv's times;
//  - at three frames (the first, the last and the one with the most contact
//    markers) set through the page, every free body's position and
//    quaternion equal its bodies.csv row at that time (its last, where an
//    event repeats a time: the state after it), to the bit;
//  - the contact markers are contacts.csv's (or samples.bin's, read here
//    from its bytes): the smooth model's row at the
//    frame's time, or the 6D, point and quasi-rigid models' rows at their
//    last step time after the previous frame and up to this one; same
//    count, the points equal, the drawn ones to float32;
//  - "patches" colours each surface with as many colours as shapes.json
//    says it has patches;
//  - a point cloud of more than 4,096 points: the point budget's levels
//    draw a uniform part of it, and "all points" keeps all of it while
//    playing;
//  - the canvas is not blank (a screenshot of it has more than one colour);
//  - no console error, page error or failed request.
// With --expect-error TEXT, instead: the page shows an error containing TEXT.
// --screenshot FILE saves the page (PNG) at the last frame checked.
// Exit 0 when all hold, 1 with each failure on stderr, 2 on bad arguments.
// Usage: node viewer_page_check.mjs URL RUN [--expect-error TEXT] [--screenshot FILE]
import fs from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const args = process.argv.slice(2);
const expectAt = args.indexOf('--expect-error');
const expectError = expectAt >= 0 ? args.splice(expectAt, 2)[1] : null;
const screenshotAt = args.indexOf('--screenshot');
const screenshot = screenshotAt >= 0 ? args.splice(screenshotAt, 2)[1] : null;
if (args.length !== 2 || expectError === undefined || screenshot === undefined) {
  console.error('usage: node viewer_page_check.mjs URL RUN [--expect-error TEXT] [--screenshot FILE]');
  process.exit(2);
}
const [url, run] = args;

// A plain split: the test scenes' names hold no comma or quote.
function table(file) {
  const [header, ...lines] = fs.readFileSync(path.join(run, file), 'utf8').trim().split('\n');
  const names = header.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i], cell])));
}

// samples.bin (validation/app/samples_file.hpp) as contacts.csv-like rows
// (time, kind, x, y, z), read here with Node's Buffer.
function sampleRows(file) {
  const bytes = fs.readFileSync(path.join(run, file));
  if (bytes.toString('latin1', 0, 8) !== 'CRSMPL01') throw new Error(`${file}: no CRSMPL01 magic`);
  const rows = [];
  for (let at = 8; at < bytes.length;) {
    const time = bytes.readDoubleLE(at), count = bytes.readUInt32LE(at + 8);
    at += 12;
    for (let i = 0; i < count; ++i, at += 16) {
      rows.push({ time: String(time), kind: 'sample', x: bytes.readFloatLE(at), y: bytes.readFloatLE(at + 4),
                  z: bytes.readFloatLE(at + 8) });
    }
  }
  return rows;
}

const failures = [];
const chromium = process.env.CONTACTREF_CHROMIUM || '/usr/bin/chromium';
// --no-sandbox: CI runs as root. WebGL without a GPU: ANGLE on SwiftShader.
const browser = await puppeteer.launch({
  executablePath: chromium, headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--window-size=1000,700'],
  defaultViewport: { width: 1000, height: 700 },
});
try {
  const page = await browser.newPage();
  page.on('console', (message) => {  // a file missing on purpose (--expect-error) is logged as a failed load
    if (message.type() === 'error' && expectError === null) failures.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    if (expectError === null) failures.push(`request failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.contactrefViewer && (window.contactrefViewer.ready || window.contactrefViewer.error),
                             { timeout: 60000 });
  const error = await page.evaluate(() => window.contactrefViewer.error);
  if (expectError !== null) {
    const shown = await page.evaluate(() => (document.getElementById('error').hidden ? '' : document.getElementById('error').textContent));
    if (!error || !error.includes(expectError)) failures.push(`expected an error with "${expectError}", the page's is ${JSON.stringify(error)}`);
    if (!shown.includes(expectError)) failures.push(`the page does not show "${expectError}": ${JSON.stringify(shown)}`);
  } else if (error) {
    failures.push(`the page reports: ${error}`);
  } else {
    const rows = table('bodies.csv');
    const times = [...new Set(rows.map((r) => Number(r.time)))];
    const pageTimes = await page.evaluate(() => window.contactrefViewer.times);
    if (JSON.stringify(pageTimes) !== JSON.stringify(times))
      failures.push(`the page's ${pageTimes.length} frame times are not bodies.csv's ${times.length}`);
    const summary = JSON.parse(fs.readFileSync(path.join(run, 'summary.json'), 'utf8'));
    const contacts = summary.files.samples ? sampleRows(summary.files.samples)
      : summary.files.contacts ? table(summary.files.contacts) : null;
    const smooth = contacts && contacts.length && 'normal_force' in contacts[0];
    let checkedMarkers = 0;
    // The contact file's markers of frame k (the page's rule, here on the file's own rows).
    const markersOf = (k) => {
      if (!contacts) return [];
      if (smooth) return contacts.filter((c) => Number(c.time) === times[k] && c.px !== '');
      const from = k > 0 ? times[k - 1] : -Infinity;
      const steps = contacts.filter((c) => Number(c.time) > from && Number(c.time) <= times[k] &&
                                           ['volume-6d', 'point', 'sample'].includes(c.kind));
      const last = Math.max(...steps.map((c) => Number(c.time)));
      return steps.filter((c) => Number(c.time) === last);
    };
    // The first and last frames, and the one with the most contact markers.
    let busiest = 0;
    for (let k = 1; k < times.length; ++k) if (markersOf(k).length > markersOf(busiest).length) busiest = k;
    for (const k of [...new Set([0, busiest, times.length - 1])]) {
      const state = await page.evaluate((frame) => {
        window.contactrefViewer.setFrame(frame);
        return window.contactrefViewer.state();
      }, k);
      if (state.time !== times[k]) failures.push(`frame ${k}: time ${state.time}, bodies.csv ${times[k]}`);
      const expected = [...new Map(rows.filter((r) => Number(r.time) === times[k]).map((r) => [r.body, r])).values()];
      if (state.bodies.length !== expected.length) failures.push(`frame ${k}: ${state.bodies.length} bodies, bodies.csv ${expected.length}`);
      for (const row of expected) {
        const body = state.bodies.find((b) => b.name === row.body);
        const want = { position: [row.x, row.y, row.z].map(Number), quaternion: [row.qw, row.qx, row.qy, row.qz].map(Number) };
        if (!body) failures.push(`frame ${k}: no body ${row.body}`);
        else if (JSON.stringify(body.position) !== JSON.stringify(want.position) ||
                 JSON.stringify(body.quaternion) !== JSON.stringify(want.quaternion))
          failures.push(`frame ${k} (t = ${times[k]}): ${row.body} at ${JSON.stringify(body)}, bodies.csv ${JSON.stringify(want)}`);
      }
      const markers = markersOf(k);
      const points = markers.map((c) => (smooth ? [c.px, c.py, c.pz] : [c.x, c.y, c.z]).map(Number));
      checkedMarkers += points.length;
      if (state.contacts.length !== points.length) {
        failures.push(`frame ${k}: ${state.contacts.length} contact markers, the contact file ${points.length}`);
        continue;
      }
      points.forEach((p, i) => {
        const shown = state.contacts[i];
        const float32 = p.every((x, c) => Math.abs(shown.drawn[c] - x) <= 1e-6 * Math.max(1, Math.abs(x)));
        if (JSON.stringify(shown.point) !== JSON.stringify(p) || !float32)
          failures.push(`frame ${k}: contact ${i} at ${JSON.stringify(shown)}, the contact file ${JSON.stringify(p)}`);
      });
    }
    // "patches": each surface in one colour per patch of its manifest's count.
    const manifest = JSON.parse(fs.readFileSync(path.join(run, summary.files.shapes), 'utf8'));
    const withPatches = manifest.bodies.filter((b) => b.patches);
    if (withPatches.length) {
      await page.click('#patches');
      const state = await page.evaluate(() => window.contactrefViewer.state());
      if (!state.patchesShown) failures.push('"patches" did not turn the patch colours on');
      for (const body of withPatches) {
        if (state.patchColours[body.name] !== body.patches)
          failures.push(`${body.name}: ${state.patchColours[body.name]} patch colours, ${summary.files.shapes} has ${body.patches} patches`);
      }
    }
    // The point budget (viewer/src/main.js): a cloud of more than 4,096
    // points drawn at level 3 shows ceil(n / 8) of them (at least 4,096),
    // spread over the whole body (their bounding box within 10% of the
    // cloud's in every direction), at level 0 all of them; and with "all
    // points" ticked, a playing run draws every point.
    const clouds = (await page.evaluate(() => window.contactrefViewer.state().pointClouds)).filter((c) => c.count > 4096);
    if (clouds.length) {
      const [reduced] = await page.evaluate(() => {
        window.contactrefViewer.setDetail(3);
        return [window.contactrefViewer.state().pointClouds];
      });
      for (const [i, cloud] of reduced.filter((c) => c.count > 4096).entries()) {
        const want = Math.max(4096, Math.ceil(cloud.count / 8));
        if (cloud.drawn !== want) failures.push(`point cloud ${i}: ${cloud.drawn} of ${cloud.count} points drawn at level 3, expected ${want}`);
        for (let c = 0; c < 3; ++c) {
          const extent = cloud.box[1][c] - cloud.box[0][c];
          if (cloud.drawnBox[0][c] - cloud.box[0][c] > 0.1 * extent || cloud.box[1][c] - cloud.drawnBox[1][c] > 0.1 * extent)
            failures.push(`point cloud ${i}: the drawn points span ${JSON.stringify(cloud.drawnBox)}, the cloud ${JSON.stringify(cloud.box)}`);
        }
      }
      await page.evaluate(() => {
        window.contactrefViewer.setDetail(0);
        document.getElementById('all-points').checked = true;
        window.contactrefViewer.setFrame(0);
      });
      await page.click('#play');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const playing = await page.evaluate(() => window.contactrefViewer.state().pointClouds);
      await page.evaluate(() => { document.getElementById('all-points').checked = false; });
      if (playing.some((c) => c.drawn !== c.count)) failures.push(`"all points" ticked, a playing run draws ${JSON.stringify(playing.map((c) => c.drawn))} points`);
      await page.evaluate(() => window.contactrefViewer.setFrame(0));  // pauses
    }
    // The canvas as the browser drew it, decoded by the browser.
    const png = await (await page.$('#view canvas')).screenshot({ encoding: 'base64' });
    const colours = await page.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, image.width, image.height).data;
      const seen = new Set();
      for (let i = 0; i < pixels.length; i += 4) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
      return seen.size;
    }, png);
    if (colours < 2) failures.push(`the canvas is blank (${colours} colour)`);
    if (times.some((t, k) => markersOf(k).length) && !checkedMarkers)
      failures.push('the run has contact markers, but none at the frames checked');
    if (screenshot) {
      await page.evaluate((frame) => window.contactrefViewer.setFrame(frame), Math.floor(times.length / 2));
      await page.screenshot({ path: screenshot });
    }
    console.log(`viewer_page_check: ${times.length} frames, frames ${[...new Set([0, busiest, times.length - 1])]} checked with ${checkedMarkers} contact markers, ` +
                `${withPatches.length} surfaces by patch, ${colours} colours on the canvas`);
  }
} catch (error) {
  failures.push(`the check failed: ${error.message}`);
} finally {
  await browser.close();
}
for (const failure of failures) console.error(`viewer_page_check: ${failure}`);
process.exit(failures.length ? 1 : 0);
