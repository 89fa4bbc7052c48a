/**
 * OpenTelemetry export is off by default and on when the standard OTEL_* variables ask: then the service's spans
 * reach an OTLP/HTTP receiver (a local server here) by the time it has closed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../../runtime/service/start.js';
import { telemetryRequested } from '../../runtime/telemetry/otel-sdk.js';

describe('telemetryRequested', () => {
  it.each([
    [{}, false],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_METRICS_EXPORTER: 'otlp' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }, false],
  ])('%j -> %s', (env, want) => {
    expect(telemetryRequested(env as NodeJS.ProcessEnv)).toBe(want);
  });
});

describe('OTLP export', () => {
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
    // The SDK reads its settings from process.env (this test file runs in its own worker).
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    process.env.OTEL_TRACES_EXPORTER = 'otlp';
    process.env.OTEL_METRICS_EXPORTER = 'none';
    process.env.OTEL_LOGS_EXPORTER = 'none';
    process.env.OTEL_SERVICE_NAME = 'agent-connector-test';
    try {
      const service = await startService({
        env: { PORT: '0', AGENT_CONNECTOR_DATA_DIR: dir, AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`, AGENT_CONNECTOR_SANDBOX: '0' },
        logger: false,
      });
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      await service.close();
    } finally {
      for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER', 'OTEL_LOGS_EXPORTER', 'OTEL_SERVICE_NAME']) delete process.env[name];
    }
    const traces = received.filter((r) => r.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces[0]?.bytes).toBeGreaterThan(0);
  });
});
