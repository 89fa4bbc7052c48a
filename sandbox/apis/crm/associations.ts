import type { ApiRequest, ApiResponse } from '../../types.js';
import { HubSpotApiError } from './errors.js';
import { RECORD_TYPES, type RecordType } from './schema.js';
import type { Crm } from './store.js';

/**
 * A record type in a v4 path, refused as v3 refuses one it does not know. Notes are left out: the sandbox links a note
 * on its create only (HubSpot's v4 refusal of a note pair is not modelled).
 */
function objectType(raw: string): RecordType {
  if (!RECORD_TYPES.includes(raw as RecordType)) throw new HubSpotApiError(400, 'VALIDATION_ERROR', `Unable to infer object type from: ${raw}`);
  return raw as RecordType;
}

/**
 * `PUT /crm/v4/objects/{fromObjectType}/{fromObjectId}/associations/default/{toObjectType}/{toObjectId}` -> 200, no
 * body: HubSpot's "Associate records (default)", "the default (most generic) association type between two object
 * types". The answer is its BatchResponsePublicDefaultAssociation: `status: "COMPLETE"`, `results: [{from: {id}, to:
 * {id}, associationSpec: {associationCategory: "HUBSPOT_DEFINED", associationTypeId}}]`, `startedAt`, `completedAt`.
 * @see https://developers.hubspot.com/docs/api-reference/crm-associations-v4/basic/put-crm-v4-objects-fromObjectType-fromObjectId-associations-default-toObjectType-toObjectId
 */
export function associateDefault(crm: Crm, req: ApiRequest, segs: readonly string[]): ApiResponse {
  const from = { type: objectType(segs[3] as string), id: segs[4] as string };
  const to = { type: objectType(segs[7] as string), id: segs[8] as string };
  const startedAt = new Date(req.now).toISOString();
  const associationTypeId = crm.associateDefault(from, to);
  return {
    status: 200,
    body: {
      status: 'COMPLETE',
      results: [{ from: { id: from.id }, to: { id: to.id }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId } }],
      startedAt,
      completedAt: startedAt,
    },
  };
}

/** Whether a path is the v4 default-association endpoint (`crm/v4/objects/{t}/{id}/associations/default/{t}/{id}`). */
export function isDefaultAssociationPath(segs: readonly string[]): boolean {
  return segs.length === 9 && segs[0] === 'crm' && segs[1] === 'v4' && segs[2] === 'objects' && segs[5] === 'associations' && segs[6] === 'default';
}
