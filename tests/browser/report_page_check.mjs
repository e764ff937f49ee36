// Opens OUT/report.html (paper_figures/report.py) from disk in headless
// Chromium (Debian's /usr/bin/chromium, or $CONTACTREF_CHROMIUM, driven by
// puppeteer-core) and checks, from the page the browser built:
//  - every image loaded (complete, natural width > 0), and there are at least
//    --min-images of them;
//  - every internal link resolves: "#id" to an element of the page, a
//    relative path to a file in OUT;
//  - no console error, page error or failed request;
//  - the summary's rows equal validation.json and timings.json: one row per
//    suite, its verdict, "passed of checks", the headline metric of
//    paper_figures/catalogue.json with its value and reference (to the 6
//    significant digits the page prints), and the time.
// Exit 0 when all hold, 1 with each failure on stderr, 2 on bad arguments.
// Usage: node report_page_check.mjs OUT [--min-images N]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const args = process.argv.slice(2);
const minImagesAt = args.indexOf('--min-images');
const minImages = minImagesAt >= 0 ? Number(args.splice(minImagesAt, 2)[1]) : 0;
if (args.length !== 1 || !Number.isInteger(minImages)) {
  console.error('usage: node report_page_check.mjs OUT [--min-images N]');
  process.exit(2);
}
const out = path.resolve(args[0]);
const source = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
for (const file of ['report.html', 'validation.json']) {
  if (!fs.existsSync(path.join(out, file))) {
    console.error(`report_page_check: ${path.join(out, file)} is missing`);
    process.exit(2);
  }
}
const validation = readJson(path.join(out, 'validation.json'));
const timingsFile = path.join(out, 'timings.json');
const timings = fs.existsSync(timingsFile) ? readJson(timingsFile) : { suites: [] };
const catalogue = readJson(path.join(source, 'paper_figures/catalogue.json'));

const failures = [];
const chromium = process.env.CONTACTREF_CHROMIUM || '/usr/bin/chromium';
// --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox'] });
let page_state;
try {
  const page = await browser.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    failures.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
  await page.goto(pathToFileURL(path.join(out, 'report.html')).href, { waitUntil: 'load' });
  page_state = await page.evaluate(() => {
    const text = (row, cls) => row.querySelector(`.${cls}`)?.textContent.trim() ?? null;
    return {
      images: [...document.images].map((i) => ({ src: i.getAttribute('src'), complete: i.complete, width: i.naturalWidth })),
      links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')),
      ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
      rows: [...document.querySelectorAll('#summary-suites tr[data-suite]')].map((row) => ({
        suite: row.dataset.suite,
        verdict: text(row, 'verdict'),
        checks: text(row, 'checks'),
        headline: text(row, 'headline'),
        value: text(row, 'headline-value'),
        reference: text(row, 'headline-reference'),
        seconds: text(row, 'seconds'),
      })),
    };
  });
} finally {
  await browser.close();
}

// Images.
for (const image of page_state.images) {
  if (!image.complete || image.width <= 0) failures.push(`image did not load: ${image.src}`);
}
if (page_state.images.length < minImages) {
  failures.push(`${page_state.images.length} images on the page, expected at least ${minImages}`);
}

// Links.
const ids = new Set(page_state.ids);
let internal = 0;
for (const href of page_state.links) {
  if (/^[a-z]+:/i.test(href)) continue;  // an external address: not the folder's to resolve
  ++internal;
  if (href.startsWith('#')) {
    if (!ids.has(decodeURIComponent(href.slice(1)))) failures.push(`link ${href}: no element has that id`);
  } else if (!fs.existsSync(path.join(out, decodeURIComponent(href.split('#')[0])))) {
    failures.push(`link ${href}: no such file in ${out}`);
  }
}

// The summary against validation.json and timings.json. A number printed
// with 6 significant digits equals x when it is within half a unit of its
// 6th digit.
const sameNumber = (printed, x) => {
  if (x === null || x === undefined) return printed === '-';
  const shown = Number(printed);
  return Number.isFinite(shown) && Math.abs(shown - x) <= 5e-6 * Math.abs(x);
};
const headlines = Object.fromEntries(catalogue.suites.map((s) => [s.name, s.headline]));
const seconds = Object.fromEntries(timings.suites.map((s) => [s.name, s]));
const rows = Object.fromEntries(page_state.rows.map((r) => [r.suite, r]));
if (page_state.rows.length !== validation.suites.length) {
  failures.push(`summary has ${page_state.rows.length} suite rows, validation.json ${validation.suites.length} suites`);
}
for (const suite of validation.suites) {
  const row = rows[suite.name];
  if (!row) {
    failures.push(`summary: no row for suite ${suite.name}`);
    continue;
  }
  const checks = Object.values(suite.metrics).filter((m) => m.passed !== null);
  const passed = checks.filter((m) => m.passed).length;
  const where = `summary row ${suite.name}`;
  if (row.verdict !== (suite.passed ? 'passed' : 'FAILED')) failures.push(`${where}: verdict '${row.verdict}'`);
  if (row.checks !== `${passed} of ${checks.length}`) {
    failures.push(`${where}: checks '${row.checks}', validation.json ${passed} of ${checks.length}`);
  }
  const name = headlines[suite.name];
  if (name) {
    const metric = suite.metrics[name] ?? seconds[suite.name]?.metrics?.[name];
    if (row.headline !== name) failures.push(`${where}: headline '${row.headline}', the catalogue's ${name}`);
    else if (!metric) failures.push(`${where}: headline ${name} is in neither validation.json nor timings.json`);
    else {
      if (!sameNumber(row.value, metric.value)) failures.push(`${where}: ${name} '${row.value}', JSON ${metric.value}`);
      if (!sameNumber(row.reference, metric.reference)) {
        failures.push(`${where}: ${name}'s reference '${row.reference}', JSON ${metric.reference}`);
      }
    }
  }
  if (seconds[suite.name] && !sameNumber(row.seconds, seconds[suite.name].seconds)) {
    failures.push(`${where}: time '${row.seconds}', timings.json ${seconds[suite.name].seconds}`);
  }
}

if (failures.length) {
  for (const failure of failures) console.error(`report_page_check: ${failure}`);
  process.exit(1);
}
console.log(`report_page_check: ${page_state.images.length} images loaded, ${internal} internal links resolved, ` +
            `${page_state.rows.length} summary rows equal validation.json, no console errors`);
