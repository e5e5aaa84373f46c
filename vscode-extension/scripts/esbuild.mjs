// Bundles src/extension.ts and vscode-languageclient into dist/extension.js.
// `--production` minifies and drops the source map (what `vsce package` ships).
import { rmSync } from 'node:fs';

import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');

rmSync('dist', { recursive: true, force: true });
await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  metafile: false,
});
console.log(`esbuild: dist/extension.js${production ? ' (production)' : ''}`);
