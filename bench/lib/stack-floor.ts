import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { Agent } from 'undici';

/**
 * The floor of the service's own stack: fastify taking a JSON body on one route and undici fetching one fixed
 * upstream path with the same socket pool, the upstream's JSON parsed and answered inside an object, and nothing
 * else (no authentication, validation, lookup, history, logging or tracing). Measured beside the bare node:http
 * proxy, it tells how much of the service's cost is the stack it is built on and how much is its own layers.
 */
export async function startStackFloor(upstream: { url: string; headers: Record<string, string>; connections: number }): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream.url);
  const agent = new Agent({ connections: upstream.connections });
  const app = Fastify({ logger: false });
  app.post('/', async () => {
    const res = await agent.request({ origin: target.origin, path: target.pathname + target.search, method: 'GET', headers: upstream.headers });
    return { data: JSON.parse(await res.body.text()) as unknown };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`,
    async close() {
      await app.close();
      await agent.close();
    },
  };
}
