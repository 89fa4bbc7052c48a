#!/usr/bin/env node
// The `agent-connector` command: the production CLI, compiled. It runs dist/ (`npm run build`, or the installed
// package) when present; a checkout without a build runs the TypeScript sources through tsx's loader instead (tsx is
// for development: after changing the sources, build again or use `npm start`, which always runs the sources).
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/runtime/cli/main.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../runtime/cli/main.ts', import.meta.url).href);
}
