import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/service/free-port.js';
import { startService, type RunningService } from '../../runtime/service/start.js';
import { conformanceProblems } from './openapi-conformance.js';

let service: RunningService | undefined;
const dir = mkdtempSync(join(tmpdir(), 'ac-start-503-'));
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * startService listens before it writes its start-up state (the first start hashes a new client secret with scrypt,
 * off the event loop), so requests arriving in between are refused: in the service's error body, with Retry-After.
 */
describe('requests while the service starts', () => {
  it('are answered 503 unavailable with Retry-After and the request id', async () => {
    const port = await freePort();
    const seen: { path: string; status: number; headers: Headers; body: any }[] = [];
    // A public route, an API route and a browser page: the API's bearer check must not answer first.
    const paths = ['/healthz', '/api/v1/connections', '/sso/v1/connect/some-link'];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        try {
          const path = paths[seen.length % paths.length]!;
          const res = await fetch(`http://127.0.0.1:${port}${path}`);
          seen.push({ path, status: res.status, headers: res.headers, body: await res.json() });
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      }
    })();
    service = await startService({
      env: { PORT: String(port), HOST: '127.0.0.1', AGENT_CONNECTOR_DATA_DIR: dir, AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` },
      logger: false,
    });
    polling = false;
    await poll;

    const starting = seen.filter((r) => r.status === 503);
    expect(starting.length).toBeGreaterThan(1);
    // Before ready, nothing but 503: no 401 from the bearer check of an API route.
    const firstOther = seen.findIndex((r) => r.status !== 503);
    expect(firstOther === -1 ? seen.length : firstOther).toBe(starting.length);
    expect(new Set(starting.map((r) => r.body.error.request_id)).size).toBe(starting.length);
    for (const res of starting) {
      expect(res.body.error).toMatchObject({ code: 'unavailable', message: 'The service is starting; retry shortly' });
      expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
      expect(res.headers.get('retry-after')).toBe('1');
      // As the document says a 503 is: its Error body and a Retry-After header.
      expect(conformanceProblems('GET', res.path.startsWith('/sso/') ? '/sso/v1/connect/{link_token}' : res.path, res)).toEqual([]);
    }
    // Once started, the same request reaches the bearer check.
    const after = await fetch(`http://127.0.0.1:${port}/api/v1/connections`);
    expect(after.status).toBe(401);
  });
});
