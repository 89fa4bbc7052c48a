/**
 * The start banner's advice for a lost client secret is a command to copy: it must run as printed where the operator
 * started the service. From a checkout (`npm start`) the command is `npx agent-connector`, and a start on a data
 * directory of its own (AGENT_CONNECTOR_DATA_DIR) needs the same directory, or the command opens a fresh store.
 */
import { describe, expect, it } from 'vitest';
import { rotateSecretCommandLine, startBanner } from '../../runtime/cli/start-command.js';
import type { RunningService } from '../../runtime/service/start.js';

const running = {
  url: 'http://127.0.0.1:3917',
  dashboardUrl: 'http://127.0.0.1:3917/dashboard',
  environmentId: 'env_development',
  clientId: 'ac_x',
  generatedClientSecret: undefined,
  sandbox: undefined,
  sandboxConnections: [],
} as unknown as RunningService;

describe('the start banner on a restart (the secret not shown)', () => {
  it('names the rotate command as it runs from where the service was started', () => {
    expect(rotateSecretCommandLine({}, false)).toBe('agent-connector environments rotate-secret');
    expect(rotateSecretCommandLine({}, true)).toBe('npx agent-connector environments rotate-secret');
    expect(rotateSecretCommandLine({ AGENT_CONNECTOR_DATA_DIR: '/tmp/fd/data' }, true)).toBe('AGENT_CONNECTOR_DATA_DIR=/tmp/fd/data npx agent-connector environments rotate-secret');
    // A path the shell would split or expand is quoted; a relative one is made absolute, as start resolved it.
    expect(rotateSecretCommandLine({ AGENT_CONNECTOR_DATA_DIR: "/tmp/my data/it's" }, false)).toBe(`AGENT_CONNECTOR_DATA_DIR='/tmp/my data/it'\\''s' agent-connector environments rotate-secret`);
    expect(rotateSecretCommandLine({ AGENT_CONNECTOR_DATA_DIR: 'rel/dir' }, true)).toBe(`AGENT_CONNECTOR_DATA_DIR=${process.cwd()}/rel/dir npx agent-connector environments rotate-secret`);
    // PostgreSQL: the data directory does not choose the store (and the URL, which may hold a password, is not printed).
    expect(rotateSecretCommandLine({ AGENT_CONNECTOR_DATA_DIR: '/tmp/fd/data', DATABASE_URL: 'postgres://u:p@db/x' }, false)).toBe('agent-connector environments rotate-secret');
  });

  it('prints that command', () => {
    const line = rotateSecretCommandLine({ AGENT_CONNECTOR_DATA_DIR: '/tmp/fd/data' }, true);
    expect(startBanner(running, false, line)).toContain(`client secret (not shown: only its hash is stored; \`${line}\` prints a new one)`);
    expect(startBanner(running, false)).toContain('`agent-connector environments rotate-secret` prints a new one');
  });
});
