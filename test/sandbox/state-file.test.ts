import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import { CalendarUserState } from '../../sandbox/apis/calendar/calendar-store.js';
import { Crm } from '../../sandbox/apis/crm/store.js';
import { Workspace } from '../../sandbox/apis/workspace/state.js';
import { decodeState, encodeState, StateCodecError } from '../../sandbox/persist/state-codec.js';
import { readStateFile, writeStateFile } from '../../sandbox/persist/state-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function stateFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ac-sandbox-state-'));
  dirs.push(dir);
  return join(dir, 'sandbox-state.json');
}

describe('sandbox state file', () => {
  it('saves every fake API\'s users as their own classes and restores tokens, clients and port', async () => {
    const file = stateFile();
    const first = await startSandbox({ stateFile: file, clients: [{ provider: 'hubspot', clientId: 'c1', clientSecret: 's1', redirectUris: ['http://127.0.0.1/cb'] }] });
    const tokens = first.control.issueTokens('hubspot', 'ana@example.com', { clientId: 'c1', scopes: ['crm.objects.contacts.read'] });
    await first.close();

    const saved = readStateFile(file)!;
    expect(saved.port).toBe(first.port);
    expect(saved.apis.crm?.get('ana@example.com')).toBeInstanceOf(Crm);
    expect(saved.apis.calendar?.get('ana@example.com')).toBeInstanceOf(CalendarUserState);
    expect(saved.apis.workspace?.get('ana@example.com')).toBeInstanceOf(Workspace);
    // Saving what was read gives the same file: nothing is lost or changed by a round trip.
    const again = `${file}.again`;
    writeStateFile(again, saved);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(file, 'utf8'));

    const second = await startSandbox({ stateFile: file });
    try {
      expect(second.port).toBe(first.port);
      const res = await fetch(`${second.url}/hubspot/crm/v3/objects/contacts`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      expect(res.status).toBe(200);
      const refreshed = await fetch(`${second.url}/hubspot/oauth/v1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken!, client_id: 'c1', client_secret: 's1' }).toString(),
      });
      expect(refreshed.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('takes a new port when the saved one is taken', async () => {
    const file = stateFile();
    const first = await startSandbox({ stateFile: file });
    const second = await startSandbox({ stateFile: file });
    try {
      expect(second.port).not.toBe(first.port);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('refuses a file it cannot read, naming it, and classes outside the registry', () => {
    const file = stateFile();
    writeFileSync(file, '{"format": 99}');
    expect(() => readStateFile(file)).toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*format 99`));
    class Other {}
    expect(() => encodeState({ a: new Other() }, new Map())).toThrow(StateCodecError);
    expect(() => decodeState({ $class: 'Function', $fields: {} }, new Map())).toThrow(/unknown class "Function"/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeState(cyclic, new Map())).toThrow(/cycle/);
  });
});
