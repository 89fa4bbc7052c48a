import type { ApiRequest, ApiResponse } from '../../types.js';
import { invalid, isObject, notFound } from './errors.js';
import type { ObjectType } from './schema.js';
import { render, requestedProperties, type Crm, type CrmObject } from './store.js';

function findObject(crm: Crm, type: ObjectType, req: ApiRequest, rawId: string): CrmObject {
  const id = decodeURIComponent(rawId);
  const idProperty = req.query.get('idProperty');
  const archived = req.query.get('archived') === 'true';
  let obj: CrmObject | undefined;
  if (idProperty && idProperty !== 'hs_object_id') {
    obj = [...crm.objects[type].values()].find((o) => (o.properties[idProperty] ?? '').toLowerCase() === id.toLowerCase());
  } else {
    obj = crm.objects[type].get(id);
  }
  if (!obj || obj.archived !== archived) throw notFound();
  return obj;
}

/** `POST /crm/v3/objects/{type}` -> 201, with the `associations` given (the answer is the object alone, as HubSpot's). */
export function createObject(crm: Crm, type: ObjectType, req: ApiRequest): ApiResponse {
  if (!isObject(req.body)) throw invalid('Invalid input JSON on line 1, column 1: request body is required');
  const props = crm.cleanProperties(type, req.body.properties ?? {});
  crm.checkRequired(type, props);
  if (type === 'contacts') crm.checkEmailUnique(props.email);
  const links = crm.checkAssociations(type, req.body.associations);
  const obj = crm.create(type, props, req.now);
  crm.associate(type, obj.id, links);
  return { status: 201, body: render(type, obj, Object.keys(props)) };
}

/** `GET /crm/v3/objects/{type}/{id}?properties=&idProperty=&archived=` */
export function getObject(crm: Crm, type: ObjectType, req: ApiRequest, rawId: string): ApiResponse {
  const obj = findObject(crm, type, req, rawId);
  return { status: 200, body: render(type, obj, requestedProperties(req.query)) };
}

/** `PATCH /crm/v3/objects/{type}/{id}`: supplied properties replace; an empty string clears. */
export function updateObject(crm: Crm, type: ObjectType, req: ApiRequest, rawId: string): ApiResponse {
  const obj = findObject(crm, type, req, rawId);
  if (!isObject(req.body)) throw invalid('Invalid input JSON on line 1, column 1: request body is required');
  const props = crm.cleanProperties(type, req.body.properties ?? {});
  if (type === 'contacts') crm.checkEmailUnique(props.email, obj.id);
  crm.update(type, obj, props, req.now);
  return { status: 200, body: render(type, obj, Object.keys(props)) };
}

/** `DELETE /crm/v3/objects/{type}/{id}` archives -> 204. */
export function archiveObject(crm: Crm, type: ObjectType, req: ApiRequest, rawId: string): ApiResponse {
  const obj = crm.objects[type].get(decodeURIComponent(rawId));
  if (obj && !obj.archived) {
    obj.archived = true;
    obj.archivedAt = new Date(req.now).toISOString();
  }
  return { status: 204 };
}

/** Parses `limit` with HubSpot's bounds. */
export function parseLimit(raw: unknown, fallback: number, max: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw invalid(`limit must be a positive integer, got ${JSON.stringify(raw)}`);
  if (n > max) throw invalid(`limit must be less than or equal to ${max}`);
  return n;
}

/**
 * `GET /crm/v3/objects/{type}?limit=&after=&properties=&archived=`: ordered by id; `after` is the id to start from;
 * `paging` is omitted on the last page.
 */
export function listObjects(crm: Crm, type: ObjectType, req: ApiRequest): ApiResponse {
  const limit = parseLimit(req.query.get('limit'), 10, 100);
  const archived = req.query.get('archived') === 'true';
  const after = req.query.get('after');
  const all = [...crm.objects[type].values()].filter((o) => o.archived === archived).sort((a, b) => Number(a.id) - Number(b.id));
  let start = 0;
  if (after) {
    if (!/^\d+$/.test(after)) throw invalid(`after must be a valid paging cursor, got ${after}`);
    start = all.findIndex((o) => Number(o.id) >= Number(after));
    if (start < 0) start = all.length;
  }
  const page = all.slice(start, start + limit);
  const next = all[start + limit];
  const requested = requestedProperties(req.query);
  return {
    status: 200,
    body: {
      results: page.map((o) => render(type, o, requested)),
      ...(next ? { paging: { next: { after: next.id, link: `?after=${next.id}` } } } : {}),
    },
  };
}
