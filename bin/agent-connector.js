#!/usr/bin/env node
// The installed command. An installed package runs the compiled CLI from dist/ (npm run build); a checkout of the
// repository, which has the TypeScript sources, runs them through tsx's loader so it never runs a stale build.
import { existsSync } from 'node:fs';

const sources = new URL('../runtime/cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import(new URL('../dist/runtime/cli/main.js', import.meta.url).href);
}
