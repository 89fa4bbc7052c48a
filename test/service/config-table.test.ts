/**
 * One configuration module: the manual's Configuration tables list exactly the variables `readConfig` (the service)
 * and `readClientConfig` (the CLI's client) read, with the defaults `CONFIG_VARIABLES` states, and a bad value names
 * its variable.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, readClientConfig, readConfig, readConnectorConfig } from '../../runtime/service/config.js';

const MANUAL = readFileSync(resolve(import.meta.dirname, '../../docs/manual.md'), 'utf8');

/** `[name, default]` of each row of the table under "## Configuration". */
function readmeRows(): [string, string][] {
  const section = MANUAL.slice(MANUAL.indexOf('\n## Configuration\n'));
  const end = section.indexOf('\n## ', 5);
  const rows = (end === -1 ? section : section.slice(0, end)).split('\n').filter((line) => /^\| `[A-Z_]+` \|/.test(line));
  return rows.map((row) => {
    const [name, byDefault] = row.split(' | ').map((cell) => cell.replace(/^\| /, '').replaceAll('`', '').trim());
    return [name as string, byDefault as string];
  });
}

/** The variables a read touches, whatever it does with them (a read that then refuses the empty env included). */
function variablesRead(read: (env: NodeJS.ProcessEnv) => unknown): string[] {
  const seen = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get(_target, name) {
      if (typeof name === 'string') seen.add(name);
      return undefined;
    },
  });
  try {
    read(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
  return [...seen].sort();
}

describe('configuration', () => {
  it("the manual's table lists every variable with its default, in the order of CONFIG_VARIABLES", () => {
    expect(readmeRows()).toEqual(CONFIG_VARIABLES.map((v) => [v.name, v.default]));
  });

  it('readConfig and readClientConfig together read exactly the listed variables, and createConnector\'s defaults are a subset', () => {
    const listed = CONFIG_VARIABLES.map((v) => v.name).sort();
    expect([...new Set([...variablesRead(readConfig), ...variablesRead(readClientConfig)])].sort()).toEqual(listed);
    for (const name of variablesRead(readConnectorConfig)) expect(listed).toContain(name);
  });

  it('gives typed defaults, and names the variable of a bad value', () => {
    const config = readConfig({});
    expect(config.http).toEqual({ timeoutMs: 30_000, connectTimeoutMs: 5_000, maxRetries: 2, maxRetryDelayMs: 60_000, maxResponseBytes: 10 * 1024 * 1024, connectionsPerOrigin: 256, maxQueuedPerOrigin: 1024 });
    expect(config.databasePoolSize).toBe(10);
    expect(config.logLevel).toBe('info');
    expect(readConfig({ AGENT_CONNECTOR_HTTP_CONNECTIONS: '64', AGENT_CONNECTOR_DATABASE_POOL_SIZE: '40' })).toMatchObject({ http: { connectionsPerOrigin: 64 }, databasePoolSize: 40 });
    for (const [name, value] of [
      ['AGENT_CONNECTOR_HTTP_TIMEOUT_MS', 'soon'],
      ['AGENT_CONNECTOR_HTTP_MAX_RETRIES', '-1'],
      ['AGENT_CONNECTOR_HTTP_CONNECTIONS', '0'],
      ['AGENT_CONNECTOR_DATABASE_POOL_SIZE', '2.5'],
      ['LOG_LEVEL', 'loud'],
      ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
      ['OTEL_TRACES_EXPORTER', 'jaeger'],
    ]) {
      expect(() => readConfig({ [name as string]: value }), name).toThrow(expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining(name as string) }));
    }
  });
});
