#!/usr/bin/env node
// `npm run build`: compiles runtime/ and generated/ to JavaScript and .d.ts (tsconfig.build.json), then copies the
// files the compiled code reads at run time, at the same relative paths: the dashboard's Handlebars views and the
// OpenAPI document. Usage: node bin/build.mjs [--out-dir <dir>] (default dist/, emptied first).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--out-dir');
if (at !== -1 && !args[at + 1]) {
  console.error('error: --out-dir needs a directory');
  process.exit(2);
}
const outDir = resolve(at === -1 ? join(root, 'dist') : args[at + 1]);

/** Read at run time relative to the compiled module (`new URL(..., import.meta.url)`), so they ship beside it. */
const ASSETS = ['runtime/service/views', 'generated/openapi.json'];

rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', outDir], { stdio: 'inherit' });
} catch {
  console.error('error: the TypeScript build failed (see above)');
  process.exit(1);
}
for (const asset of ASSETS) cpSync(join(root, asset), join(outDir, asset), { recursive: true, filter: (src) => !src.endsWith('.ts') });
console.log(`built ${outDir}`);
