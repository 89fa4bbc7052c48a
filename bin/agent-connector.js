#!/usr/bin/env node
// The installed command: runs the TypeScript CLI through tsx's loader (the package ships sources, no build step).
import { register } from 'tsx/esm/api';

register();
await import('../runtime/cli/main.ts');
