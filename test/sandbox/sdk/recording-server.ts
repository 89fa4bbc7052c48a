/**
 * A local HTTP server that records each request an SDK sends and answers a fixed JSON body, so a test can compare
 * what an official client sends for an operation with what our request builder makes for the same operation.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UpstreamRequest } from '../../../runtime/types.js';

export interface RecordedCall {
  method: string;
  /** The raw request path, as sent. */
  path: string;
  /** Query parameters: one string each, or an array for a repeated parameter (as `UpstreamRequest.query`). */
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or undefined when none was sent. */
  body: unknown;
}

export interface RecordingServer {
  url: string;
  calls: RecordedCall[];
  /** The one call recorded since the last `take()`; fails when there were none or several. */
  take(): RecordedCall;
  close(): Promise<void>;
}

export async function startRecordingServer(answer: (call: RecordedCall) => { status: number; body: unknown } = () => ({ status: 200, body: {} })): Promise<RecordingServer> {
  const calls: RecordedCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://recorder.local');
      const raw = Buffer.concat(chunks).toString('utf8');
      const query: Record<string, string | string[]> = {};
      for (const key of new Set(url.searchParams.keys())) {
        const all = url.searchParams.getAll(key);
        query[key] = all.length === 1 ? all[0]! : all;
      }
      const call: RecordedCall = { method: req.method ?? 'GET', path: url.pathname, query, headers: req.headers, body: raw === '' ? undefined : JSON.parse(raw) };
      calls.push(call);
      const out = answer(call);
      res.writeHead(out.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    take() {
      const taken = calls.splice(0, calls.length);
      if (taken.length !== 1) throw new Error(`expected one recorded request, got ${taken.length}`);
      return taken[0]!;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The request as the upstream sees it: method, the path with percent-encoding undone (`%40` and `@`, `%3A` and `:`
 * name the same resource; clients differ in which characters they escape), the query and the JSON body.
 */
export function asSeenUpstream(r: { method: string; path: string; query: Record<string, string | string[]>; body?: unknown }) {
  return { method: r.method.toUpperCase(), path: decodeURIComponent(r.path), query: r.query, body: r.body ?? undefined };
}

export function builderRequest(r: UpstreamRequest) {
  return asSeenUpstream({ method: r.method, path: r.path, query: r.query, body: r.body });
}
