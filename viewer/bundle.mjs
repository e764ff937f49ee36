// The build's bundling step (viewer/CMakeLists.txt): esbuild's API bundles
// src/main.js with three.js into OUT/viewer.js and copies the page beside it.
// Usage: node bundle.mjs OUT
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const out = process.argv[2];
if (!out) {
  console.error('usage: node bundle.mjs OUT');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
await esbuild.build({
  entryPoints: [path.join(here, 'src/main.js')],
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  legalComments: 'linked',
  logLevel: 'warning',
  outfile: path.join(out, 'viewer.js'),
});
for (const file of ['index.html', 'viewer.css']) fs.copyFileSync(path.join(here, file), path.join(out, file));
