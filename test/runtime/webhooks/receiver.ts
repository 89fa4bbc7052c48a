/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that records every delivery (raw body and headers)
 * and answers as told: `status` (default 204), or holds the request open (`hold`), or is not listening at all
 * (`stop()` then `start()` again on the same port: a receiver that is down and comes back).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export class Receiver {
  readonly received: ReceivedDelivery[] = [];
  /** TCP connections accepted, requests or not (a TLS client's handshake to this plain server counts too). */
  connections = 0;
  /** What the next requests are answered with. */
  status = 204;
  /** When true, requests are left unanswered (the sender's attempt hangs). */
  hold = false;
  /** Called for each request as it arrives (before it is answered). */
  onRequest: ((delivery: ReceivedDelivery) => void) | undefined;
  #server: Server | null = null;
  #port = 0;
  readonly #held: ServerResponse[] = [];

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}/hooks/agent-connector`;
  }

  async start(): Promise<this> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const delivery: ReceivedDelivery = {
          headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.received.push(delivery);
        this.onRequest?.(delivery);
        if (this.hold) {
          this.#held.push(res);
          return;
        }
        res.statusCode = this.status;
        res.end(this.status >= 300 ? 'receiver says no' : '');
      });
    });
    server.on('connection', () => (this.connections += 1));
    await new Promise<void>((resolve) => server.listen(this.#port, '127.0.0.1', resolve));
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
    return this;
  }

  /** Stops listening (connections are refused) but keeps the port for `start()`. */
  async stop(): Promise<void> {
    for (const res of this.#held.splice(0)) res.destroy();
    const server = this.#server;
    this.#server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The deliveries of one event id. */
  ofEvent(id: string): ReceivedDelivery[] {
    return this.received.filter((d) => d.headers['webhook-id'] === id);
  }
}
