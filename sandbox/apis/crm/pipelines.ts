import type { ApiResponse } from '../../types.js';
import { DEAL_PIPELINES } from './schema.js';
import type { Crm } from './store.js';

/**
 * `GET /crm/v3/pipelines/deals`: every deal pipeline of the account with its stages, in display order, at once (no
 * paging). Stage metadata values are strings, as HubSpot sends them (`probability: "0.2"`, `isClosed: "false"`).
 * @see https://developers.hubspot.com/docs/api-reference/latest/crm/pipelines/guide
 */
export function listDealPipelines(crm: Crm): ApiResponse {
  // Made with the account, as its owner (the user) was: a state file saved before pipelines were modelled has them too.
  const t = crm.owners[0]!.createdAt;
  const results = DEAL_PIPELINES.map((p, i) => ({
    id: p.id,
    label: p.label,
    displayOrder: i,
    createdAt: t,
    updatedAt: t,
    archived: false,
    stages: p.stages.map((s, j) => ({
      id: s.id,
      label: s.label,
      displayOrder: j,
      metadata: { isClosed: String(s.isClosed), probability: s.probability },
      createdAt: t,
      updatedAt: t,
      archived: false,
      writePermissions: 'CRM_PERMISSIONS_ENFORCEMENT',
    })),
  }));
  return { status: 200, body: { results } };
}
