import { describe, expect, it } from 'vitest';
import { checkProxyHeaders } from '../../../runtime/proxy/headers.js';
import { checkProxyPath } from '../../../runtime/proxy/path-safety.js';
import { ATTACK_PATHS } from './attacks.js';

/** What a refusal says about where the problem is: `details.violations[0].pointer`. */
function pointerOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    const details = (error as { code?: string; details?: { violations?: { pointer: string; message: string }[] } }).details;
    expect((error as { code: string }).code).toBe('invalid_proxy_request');
    expect(details?.violations?.[0]?.message).toBe((error as Error).message);
    return details?.violations?.[0]?.pointer;
  }
  return undefined;
}

describe('proxy refusals name the field with a JSON pointer', () => {
  it('every refused path points at /path', () => {
    for (const path of ATTACK_PATHS) expect(pointerOf(() => checkProxyPath(path)), JSON.stringify(path)).toBe('/path');
  });

  it('a refused header points at /headers/<name>, escaped as a JSON pointer', () => {
    expect(pointerOf(() => checkProxyHeaders({ Authorization: 'Bearer x' }))).toBe('/headers/Authorization');
    expect(pointerOf(() => checkProxyHeaders({ 'X-Ok': 'a\r\nb: c' }))).toBe('/headers/X-Ok');
    expect(pointerOf(() => checkProxyHeaders({ 'a/b~c': 'x' }))).toBe('/headers/a~1b~0c');
    // Method overrides would turn a checked GET into a DELETE upstream.
    expect(pointerOf(() => checkProxyHeaders({ 'X-HTTP-Method-Override': 'DELETE' }))).toBe('/headers/X-HTTP-Method-Override');
  });
});
