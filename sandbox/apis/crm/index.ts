import { hubspotError } from '../../dialects/hubspot.js';
import type { ApiModule, ApiRequest, ApiResponse } from '../../types.js';
import { associateDefault, isDefaultAssociationPath } from './associations.js';
import { HubSpotApiError } from './errors.js';
import { archiveObject, createObject, getObject, listObjects, updateObject } from './objects.js';
import { getOwner, listOwners } from './owners.js';
import { listDealPipelines } from './pipelines.js';
import { OBJECT_TYPES, type ObjectType } from './schema.js';
import { requiredScopes, requireScope } from './scopes.js';
import { searchObjects } from './search.js';
import { Crm } from './store.js';

function route(crm: Crm, req: ApiRequest): ApiResponse {
  const segs = req.path.split('/').filter(Boolean);
  const m = req.method;
  if (segs[0] !== 'crm' || (segs[1] !== 'v3' && segs[1] !== 'v4')) throw noRoute(m, req.path);
  requireScope(req.scopes, requiredScopes(m, segs));
  if (segs[1] === 'v4') {
    if (isDefaultAssociationPath(segs) && m === 'PUT') return associateDefault(crm, req, segs);
    throw noRoute(m, req.path);
  }
  if (segs[2] === 'owners') {
    if (segs.length === 3 && m === 'GET') return listOwners(crm, req);
    if (segs.length === 4 && m === 'GET') return getOwner(crm, req, segs[3] as string);
  }
  // Deal pipelines only: the sandbox has no tickets or other objects with pipelines (HubSpot's refusal of an object
  // type without pipelines is not documented, so other types stay unmodelled).
  if (segs[2] === 'pipelines' && segs[3] === 'deals' && segs.length === 4 && m === 'GET') return listDealPipelines(crm);
  if (segs[2] === 'objects' && segs[3]) {
    const type = segs[3] as ObjectType;
    if (!OBJECT_TYPES.includes(type)) throw new HubSpotApiError(400, 'VALIDATION_ERROR', `Unable to infer object type from: ${segs[3]}`);
    const id = segs[4];
    if (!id && m === 'POST') return createObject(crm, type, req);
    if (!id && m === 'GET') return listObjects(crm, type, req);
    if (id === 'search' && segs.length === 5 && m === 'POST') return searchObjects(crm, type, req);
    if (id && segs.length === 5) {
      if (m === 'GET') return getObject(crm, type, req, id);
      if (m === 'PATCH') return updateObject(crm, type, req, id);
      if (m === 'DELETE') return archiveObject(crm, type, req, id);
    }
  }
  throw noRoute(m, req.path);
}

/** HubSpot's 404 for an address it has no endpoint at. */
function noRoute(method: string, path: string): HubSpotApiError {
  return Object.assign(new HubSpotApiError(404, 'OBJECT_NOT_FOUND', `No route for ${method} ${path}`), { unmodelled: true });
}

/**
 * The fake HubSpot CRM v3: companies, contacts, deals and notes (create 201, get, update, list, search, archive) with
 * string-typed property values, the unique contact e-mail and a note's required hs_timestamp; owners; the deal pipelines and their stages; and v4's
 * default association between two existing records. Every
 * user's CRM starts with one owner and sample companies, contacts and deals. A token without the granular scope a call needs gets 403 MISSING_SCOPES.
 * @see https://developers.hubspot.com/docs/api/crm/understanding-the-crm
 */
export function createCrmApi(): ApiModule {
  const crms = new Map<string, Crm>();
  return {
    service: 'crm',
    dialect: 'hubspot',
    users: crms as Map<string, unknown>,
    seedUser(user, now) {
      if (!crms.has(user)) crms.set(user, new Crm(user, now));
    },
    handle(req) {
      let crm = crms.get(req.user);
      if (!crm) {
        crm = new Crm(req.user, req.now);
        crms.set(req.user, crm);
      }
      try {
        return route(crm, req);
      } catch (err) {
        if (err instanceof HubSpotApiError) return err.toResponse();
        throw err;
      }
    },
    errorResponse: (status, message, extra) => hubspotError(status, message, extra),
  };
}
