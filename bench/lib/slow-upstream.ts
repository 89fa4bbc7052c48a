/**
 * A stand-in for a real provider API: answers every request with the same small JSON body after a fixed latency,
 * in a process of its own (so its work is not counted as the service's). Real APIs answer in 50-300 ms; the
 * figures use 100 ms.
 *
 * As a child: `tsx bench/lib/slow-upstream.ts <latencyMs>` prints `{"port":N}` once listening.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** What `crm_contact_get` returns from HubSpot, trimmed. */
const BODY = JSON.stringify({
  id: '1',
  properties: { email: 'bench@example.com', firstname: 'Bench', hs_object_id: '1' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  archived: false,
});

export interface SlowUpstream {
  url: string;
  close(): Promise<void>;
}

/** Starts the upstream in a child process. */
export async function startSlowUpstream(latencyMs: number): Promise<SlowUpstream> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), String(latencyMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`slow upstream exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function serve(latencyMs: number): void {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY) });
        res.end(BODY);
      }, latencyMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.maxRequestsPerSocket = 0;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) serve(Number(process.argv[2] ?? 100));
