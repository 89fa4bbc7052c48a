/**
 * OpenTelemetry export is off by default and on when the standard OTEL_* variables ask: then the service's spans
 * reach an OTLP/HTTP receiver (a local server here) by the time it has closed. Which variables turn it on, and which
 * values are refused, is the configuration's (test/service/config.test.ts); a refused one stops the start.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../../runtime/service/start.js';

describe('OTLP export', () => {
  it('does not start on an OTEL_* value the SDK would only log (an endpoint that is not a URL), naming the variable', async () => {
    await expect(startService({ env: { PORT: '0', AGENT_CONNECTOR_DATA_DIR: join(tmpdir(), 'ac-otlp-never-created'), AGENT_CONNECTOR_SANDBOX: '0', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, logger: false })).rejects.toThrow(
      expect.objectContaining({ name: 'ConfigError', message: expect.stringMatching(/^OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL/) }),
    );
  });

  const received: { path: string; type: string | undefined; bytes: number }[] = [];
  let receiver: Server;
  const dir = mkdtempSync(join(tmpdir(), 'ac-otlp-'));
  afterAll(() => {
    receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the service spans to the OTEL_EXPORTER_OTLP_ENDPOINT receiver', async () => {
    receiver = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.on('end', () => {
        received.push({ path: req.url ?? '', type: req.headers['content-type'], bytes });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const otel = {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_SERVICE_NAME: 'agent-connector-test',
    };
    // The configuration read from `env` decides to start the SDK; the SDK then reads its own settings from
    // process.env (this test file runs in its own worker), as it would in a real start where the two are one.
    Object.assign(process.env, otel);
    try {
      const service = await startService({
        env: { ...otel, PORT: '0', AGENT_CONNECTOR_DATA_DIR: dir, AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`, AGENT_CONNECTOR_SANDBOX: '0' },
        logger: false,
      });
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      await service.close();
    } finally {
      for (const name of Object.keys(otel)) delete process.env[name];
    }
    const traces = received.filter((r) => r.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces[0]?.bytes).toBeGreaterThan(0);
  });
});
