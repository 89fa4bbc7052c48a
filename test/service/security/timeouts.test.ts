/**
 * Security review, item 4: a body dripping one byte every 15 s kept a connection open for minutes. The service now
 * has request, header and idle deadlines (runtime/service/timeouts.ts); here they are set short and a slow client
 * drips its body or its headers over a raw socket.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false, timeouts: { requestMs: 1_500, headersMs: 1_000, idleMs: 2_000 } });
});
afterAll(() => h?.close());

/** Opens a socket, writes `first`, then one byte of `drip` every `everyMs`; resolves with what the server said and when it closed. */
function slowClient(first: string, drip: string, everyMs: number): Promise<{ answer: string; closedAfterMs: number }> {
  const { port } = new URL(h.url);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    let i = 0;
    const timer = setInterval(() => {
      if (i < drip.length && !socket.destroyed) socket.write(drip[i++]!);
    }, everyMs);
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: Date.now() - started });
    });
    socket.write(first);
  });
}

describe('slow clients are cut off (item 4)', () => {
  it('a body dripping a byte every 200 ms gets 408 and the connection closes at the request deadline', async () => {
    const body = JSON.stringify({ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' });
    const head = `POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { answer, closedAfterMs } = await slowClient(head, body, 200);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeLessThan(5_000);
  });

  it('headers dripping a byte every 200 ms are cut off at the header deadline', async () => {
    const { answer, closedAfterMs } = await slowClient('GET /healthz', 'z'.repeat(100), 200);
    expect(answer === '' || /^HTTP\/1\.1 408/.test(answer)).toBe(true);
    expect(closedAfterMs).toBeLessThan(4_000);
  });

  it('an idle connection that sends nothing is closed', async () => {
    const { closedAfterMs } = await slowClient('', '', 10_000);
    expect(closedAfterMs).toBeLessThan(5_000);
  });

  it('a prompt request is not affected', async () => {
    expect((await h.call('GET', '/healthz')).status).toBe(200);
  });
});
