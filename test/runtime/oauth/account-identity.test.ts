import { describe, expect, it } from 'vitest';
import { connectors } from '../../../generated/connectors.gen.js';
import { changedAccountIdentity } from '../../../runtime/oauth/account-identity.js';

const notion = (workspace: string, user: string | undefined) => ({ workspace_id: workspace, owner: { type: 'user', ...(user === undefined ? {} : { user: { id: user } }) } });
const POINTERS = ['/workspace_id', '/owner/user/id'];

describe('changedAccountIdentity', () => {
  it('names the pointers whose stored value the new answer does not repeat', () => {
    expect(changedAccountIdentity(POINTERS, notion('w1', 'u1'), notion('w1', 'u1'))).toEqual([]);
    expect(changedAccountIdentity(POINTERS, notion('w1', 'u1'), notion('w1', 'u2'))).toEqual(['/owner/user/id']);
    expect(changedAccountIdentity(POINTERS, notion('w1', 'u1'), notion('w2', 'u2'))).toEqual(POINTERS);
    expect(changedAccountIdentity(['/hub_id'], { hub_id: 42 }, { hub_id: '42' })).toEqual(['/hub_id']);
  });

  it('a value stored and now missing counts as changed; nothing stored pins nothing', () => {
    expect(changedAccountIdentity(POINTERS, notion('w1', 'u1'), notion('w1', undefined))).toEqual(['/owner/user/id']);
    expect(changedAccountIdentity(['/hub_id'], { hub_id: 42 }, {})).toEqual(['/hub_id']);
    expect(changedAccountIdentity(['/hub_id'], {}, { hub_id: 7 })).toEqual([]);
    expect(changedAccountIdentity([], notion('w1', 'u1'), notion('w2', 'u2'))).toEqual([]);
  });

  it('pins Notion and HubSpot, not the Google connectors', () => {
    const pinned = Object.fromEntries(Object.values(connectors).map((c) => [c.name, c.oauth.accountIdentity]));
    expect(pinned).toEqual({ workspace: POINTERS, crm: ['/hub_id'], calendar: [], sheets: [], docs: [] });
  });
});
