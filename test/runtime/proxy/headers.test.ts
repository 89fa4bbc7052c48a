import { describe, expect, it } from 'vitest';
import { checkProxyHeaders, filterResponseHeaders } from '../../../runtime/proxy/headers.js';
import { FORBIDDEN_HEADERS } from './attacks.js';


describe('checkProxyHeaders', () => {
  it.each(FORBIDDEN_HEADERS.map((h) => [h]))('refuses %s', (name) => {
    expect(() => checkProxyHeaders({ [name]: 'x' })).toThrow(expect.objectContaining({ code: 'invalid_proxy_request' }));
  });

  it('refuses bad names and CR/LF in values', () => {
    expect(() => checkProxyHeaders({ 'X Bad': '1' })).toThrow(expect.objectContaining({ code: 'invalid_proxy_request' }));
    expect(() => checkProxyHeaders({ 'X-Ok': 'a\r\nInjected: 1' })).toThrow(expect.objectContaining({ code: 'invalid_proxy_request' }));
    expect(() => checkProxyHeaders({ 'X-Ok': 5 as unknown as string })).toThrow(expect.objectContaining({ code: 'invalid_proxy_request' }));
  });

  it('passes ordinary headers through, lower-cased', () => {
    expect(checkProxyHeaders({ 'Notion-Version': '2025-09-03', 'Content-Type': 'application/json' })).toEqual({
      'notion-version': '2025-09-03',
      'content-type': 'application/json',
    });
    expect(checkProxyHeaders(undefined)).toEqual({});
  });
});

describe('filterResponseHeaders', () => {
  it('drops Set-Cookie, hop-by-hop and framing headers', () => {
    expect(
      filterResponseHeaders({
        'set-cookie': ['a=1', 'b=2'],
        connection: 'keep-alive',
        'transfer-encoding': 'chunked',
        'content-length': '10',
        'content-encoding': 'gzip',
        'content-type': 'application/json',
        'x-request-id': 'abc',
      }),
    ).toEqual({ 'content-type': 'application/json', 'x-request-id': 'abc' });
  });
});
