import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../runtime/errors.js';
import { applyPathAliases, checkProxyPath } from '../../../runtime/proxy/path-safety.js';
import { ATTACK_PATHS } from './attacks.js';


describe('checkProxyPath', () => {
  it.each(ATTACK_PATHS.map((p) => [JSON.stringify(p).slice(0, 60), p]))('refuses %s', (_name, path) => {
    let error: unknown;
    try {
      checkProxyPath(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).code).toBe('invalid_proxy_request');
    expect((error as ConnectorError).status).toBe(400);
  });

  it('says how to fix a path without its leading slash, and why an absolute URL is refused', () => {
    expect(() => checkProxyPath('calendar/v3/users/me/calendarList')).toThrow('path must start with "/" (add the leading slash)');
    expect(() => checkProxyPath('https://evil.example/v1/users/me')).toThrow('not an absolute URL');
  });

  it('refuses non-strings', () => {
    for (const bad of [undefined, null, 42, ['/v1'], { path: '/v1' }]) {
      expect(() => checkProxyPath(bad)).toThrow(ConnectorError);
    }
  });

  it.each([
    ['/v1/users/me'],
    ['/calendar/v3/users/me/calendarList'],
    ['/crm/v3/owners'],
    ['/v4/spreadsheets'],
    ['/docs/v1/documents'],
    ['/v4/spreadsheets/abc/values/Sheet1!A1:C10'],
    ["/v4/spreadsheets/abc/values/'My%20Sheet'!A1"],
    ['/crm/v3/objects/contacts/jane%40example.com'],
    ['/v1/users/'],
    ['/v1/pages/a..b'],
    ['/v1/pages/...'],
    ['/v1/blocks/abc:def'],
  ])('accepts %s unchanged', (path) => {
    expect(checkProxyPath(path)).toBe(path);
  });
});

describe('applyPathAliases', () => {
  it('rewrites a known prefix only', () => {
    expect(applyPathAliases('/docs/v1/documents', { '/docs/v1/': '/v1/' })).toBe('/v1/documents');
    expect(applyPathAliases('/v1/documents', { '/docs/v1/': '/v1/' })).toBe('/v1/documents');
  });
});

describe('a path with characters to percent-encode', () => {
  it.each([
    ['/v4/spreadsheets/abc/values/November expenses!A1:B2', `path contains " ", which must be percent-encoded (%20): send "/v4/spreadsheets/abc/values/November%20expenses!A1:B2"`],
    ["/v4/spreadsheets/abc/values/'Décembre [2026]'!A1", `path contains "é", " ", "[", "]", which must be percent-encoded (%C3%A9, %20, %5B, %5D): send "/v4/spreadsheets/abc/values/'D%C3%A9cembre%20%5B2026%5D'!A1"`],
  ])('names them, with the path to send: %s', (path, message) => {
    expect(() => checkProxyPath(path)).toThrow(`Proxy path refused: ${message}.`);
  });

  it('sends no path that another check refuses, nor a long one', () => {
    expect(() => checkProxyPath('/v1/a b/../c')).toThrow(/^Proxy path refused: path contains " ", which must be percent-encoded \(%20\)\.$/);
    expect(() => checkProxyPath(`/v1/${'x '.repeat(200)}`)).toThrow(/must be percent-encoded \(%20\)\.$/);
  });
});
