import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../connector-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.connection('calendar', 'calendar', { allowed_redirect_urls: ['https://app.example/done'] });
});
afterAll(() => h.close());

describe('authorization link refusals', () => {
  it('a redirect_url off the allowlist names /redirect_url and leaves no account behind', async () => {
    const refused = h.env.authorizationLink({ connection_name: 'calendar', identifier: 'off-list', redirect_url: 'https://evil.example/done' });
    await expect(refused).rejects.toMatchObject({
      code: 'invalid_request',
      details: { violations: [{ pointer: '/redirect_url', keyword: 'allowlist' }] },
    });
    expect(await h.env.listAccounts({ identifier: 'off-list' })).toEqual([]);
  });

  it('an unusable identifier names /identifier', async () => {
    await expect(h.env.authorizationLink({ connection_name: 'calendar', identifier: '' })).rejects.toMatchObject({
      code: 'invalid_request',
      details: { violations: [{ pointer: '/identifier' }] },
    });
  });
});
