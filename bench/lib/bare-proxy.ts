import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The floor of any proxy: node:http piping each request to one fixed upstream path with a fixed bearer token, no
 * parsing, validation or storage. The service is measured against this at the same concurrency.
 */
export async function startBareProxy(upstream: { url: string; method: string; headers: Record<string, string>; maxSockets?: number }): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream.url);
  // The same socket pool per upstream as the service's (its HTTP policy's connectionsPerOrigin, 256 by default).
  const agent = new http.Agent({ keepAlive: true, maxSockets: upstream.maxSockets ?? 256 });
  const server = http.createServer((req, res) => {
    const out = http.request(
      { hostname: target.hostname, port: target.port, path: target.pathname + target.search, method: upstream.method, headers: { ...upstream.headers }, agent },
      (up) => {
        res.writeHead(up.statusCode ?? 502, { 'content-type': up.headers['content-type'] ?? 'application/json' });
        up.pipe(res);
      },
    );
    out.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The floor of any refusal: node:http answering every request 503 with Retry-After once its body has arrived. */
export async function startBareRefuser(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"error":{"code":"unavailable","message":"refused"}}');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1/execute_tool`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
