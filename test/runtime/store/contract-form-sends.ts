/**
 * Contract, part 7: the dashboard's one-time form sends. Of any number of sends of one form, from several store
 * instances at once (other service processes), exactly one claims it; the others read what it made, sealed at rest;
 * a failed send gives its claim back; sends end with their session (purge) and their environment.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewFormSend } from '../../../runtime/store/types.js';
import type { ContractContext } from './contract.js';

const inMinutes = (m: number): string => new Date(Date.now() + m * 60_000).toISOString();
const sendOf = (label: string, overrides: Partial<NewFormSend> = {}): NewFormSend => ({
  id: createHash('sha256').update(label).digest('hex'),
  environmentId: 'env_a',
  action: 'link.create',
  expiresAt: inMinutes(60),
  ...overrides,
});

export function formSendsContract(ctx: ContractContext): void {
  describe('dashboard form sends', () => {
    it('one of many concurrent sends from several store instances claims the form; the rest read what it made', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const stores = [ctx.store, await ctx.open(), await ctx.open()];
      const send = sendOf('session-1 token-1');
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => stores[i % stores.length]!.claimFormSend(send)));
      expect(claims.filter((c) => c === null)).toHaveLength(1);
      for (const c of claims.filter((c) => c !== null)) expect(c).toMatchObject({ id: send.id, environmentId: 'env_a', action: 'link.create', result: null });

      const made = { link: { link: 'https://connect.example/sso/v1/connect/lk_secret-link-token', expiry: inMinutes(30) }, identifier: 'ana' };
      await stores[1]!.finishFormSend(send.id, made);
      const again = await stores[2]!.claimFormSend(send);
      expect(again).toMatchObject({ result: made, expiresAt: new Date(send.expiresAt).toISOString() });
      expect(Date.parse(again!.createdAt)).toBeLessThanOrEqual(Date.now());
      // What it made is sealed at rest, bound to its row: the link is a credential.
      const [row] = await ctx.db.query('SELECT result FROM dashboard_form_sends WHERE id = ?', [send.id]);
      expect(String(row!.result)).toMatch(/^v1\.k1\./);
      expect(await ctx.db.dumpText()).not.toContain('secret-link-token');
      // A finished send keeps its claim; another token of the same session is another form.
      await ctx.store.releaseFormSend(send.id);
      expect(await ctx.store.claimFormSend(send)).toMatchObject({ result: made });
      expect(await ctx.store.claimFormSend(sendOf('session-1 token-2'))).toBeNull();
    });

    it('a send that did nothing gives its claim back, so the form sent again is claimed afresh', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const send = sendOf('session-2 token-1', { action: 'webhook.create' });
      expect(await ctx.store.claimFormSend(send)).toBeNull();
      await ctx.store.releaseFormSend(send.id);
      expect(await (await ctx.open()).claimFormSend(send)).toBeNull();
      expect(await ctx.store.claimFormSend(send)).toMatchObject({ action: 'webhook.create', result: null });
    });

    it('sends end with their session (purgeExpired) and with their environment', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      await ctx.store.createEnvironment({ id: 'env_b', name: 'B' });
      const ended = sendOf('ended', { expiresAt: inMinutes(-1) });
      const live = sendOf('live');
      const other = sendOf('other', { environmentId: 'env_b' });
      for (const s of [ended, live, other]) expect(await ctx.store.claimFormSend(s)).toBeNull();
      expect(await ctx.store.purgeExpired()).toBe(1);
      expect(await ctx.store.claimFormSend(ended)).toBeNull();
      expect(await ctx.store.claimFormSend(live)).not.toBeNull();
      await ctx.store.deleteEnvironment('env_b');
      expect(await ctx.db.query('SELECT id FROM dashboard_form_sends WHERE environment_id = ?', ['env_b'])).toEqual([]);
    });
  });
}
