/** Contract, part 4: MCP sessions (issue 10): stored by token hash, per environment, revocable, purged once expired. */
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../runtime/errors.js';
import type { NewMcpSession } from '../../../runtime/store/types.js';
import type { ContractContext } from './contract.js';
import { inMinutes, secret } from './fixtures.js';

function session(environmentId: string, overrides: Partial<NewMcpSession> = {}): NewMcpSession {
  return {
    environmentId,
    identifier: 'user-1',
    tokenHash: secret('hash'),
    connections: null,
    tools: null,
    readOnly: false,
    mode: 'tools',
    expiresAt: inMinutes(60),
    ...overrides,
  };
}

export function mcpSessionsContract(ctx: ContractContext): void {
  describe('MCP sessions', () => {
    it('creates with a prefixed id and reads back by token hash, by id and in a list, only in its environment', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      await ctx.store.createEnvironment({ id: 'env_b', name: 'B' });
      const input = session('env_a', { connections: ['cal'], tools: ['calendar_list_events'], readOnly: true, mode: 'search' });
      const created = await ctx.store.createMcpSession(input);
      expect(created.id).toMatch(/^mcps_[a-z2-7]{26}$/);
      expect(created).toMatchObject({ ...input, expiresAt: new Date(input.expiresAt).toISOString(), revokedAt: null });
      expect(await ctx.store.getMcpSessionByTokenHash(input.tokenHash)).toEqual(created);
      expect(await ctx.store.getMcpSessionByTokenHash(secret('other'))).toBeNull();
      expect(await ctx.store.getMcpSession('env_a', created.id)).toEqual(created);
      expect(await ctx.store.getMcpSession('env_b', created.id)).toBeNull();
      const unscoped = await ctx.store.createMcpSession(session('env_a', { identifier: 'user-2' }));
      expect(unscoped).toMatchObject({ connections: null, tools: null, readOnly: false, mode: 'tools' });
      expect(await ctx.store.getMcpSession('env_a', unscoped.id)).toEqual(unscoped);
      expect((await ctx.store.listMcpSessions('env_a')).map((s) => s.id).sort()).toEqual([created.id, unscoped.id].sort());
      expect((await ctx.store.listMcpSessions('env_a', { identifier: 'user-2' })).map((s) => s.id)).toEqual([unscoped.id]);
      expect(await ctx.store.listMcpSessions('env_b')).toEqual([]);
      await expect(ctx.store.createMcpSession(session('env_missing'))).rejects.toBeInstanceOf(ConnectorError);
    });

    it('refuses a second session with the same token hash', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const input = session('env_a');
      await ctx.store.createMcpSession(input);
      await expect(ctx.store.createMcpSession({ ...input, identifier: 'someone-else' })).rejects.toMatchObject({ code: 'conflict' });
    });

    it('revokes once, keeping the first time, and never across environments', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      await ctx.store.createEnvironment({ id: 'env_b', name: 'B' });
      const created = await ctx.store.createMcpSession(session('env_a'));
      expect(await ctx.store.revokeMcpSession('env_b', created.id)).toBeNull();
      expect((await ctx.store.getMcpSessionByTokenHash(created.tokenHash))?.revokedAt).toBeNull();
      const first = '2026-01-01T00:00:00.000Z';
      expect(await ctx.store.revokeMcpSession('env_a', created.id, first)).toMatchObject({ id: created.id, revokedAt: first });
      expect(await ctx.store.revokeMcpSession('env_a', created.id, '2026-02-01T00:00:00.000Z')).toMatchObject({ revokedAt: first });
      expect((await ctx.store.getMcpSessionByTokenHash(created.tokenHash))?.revokedAt).toBe(first);
      expect(await ctx.store.revokeMcpSession('env_a', 'mcps_unknown')).toBeNull();
    });

    it('purges expired sessions and keeps live ones', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const expired = await ctx.store.createMcpSession(session('env_a', { expiresAt: inMinutes(-1) }));
      const live = await ctx.store.createMcpSession(session('env_a', { expiresAt: inMinutes(5) }));
      expect(await ctx.store.purgeExpired()).toBe(1);
      expect(await ctx.store.getMcpSessionByTokenHash(expired.tokenHash)).toBeNull();
      expect(await ctx.store.getMcpSessionByTokenHash(live.tokenHash)).toEqual(live);
    });
  });
}
