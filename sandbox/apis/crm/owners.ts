import type { ApiRequest, ApiResponse } from '../../types.js';
import { notFound } from './errors.js';
import { parseLimit } from './objects.js';
import type { Crm } from './store.js';

/** `GET /crm/v3/owners[/]?email=&after=&limit=(default 100, max 500)&archived=` */
export function listOwners(crm: Crm, req: ApiRequest): ApiResponse {
  const limit = parseLimit(req.query.get('limit'), 100, 500);
  const email = req.query.get('email');
  const archived = req.query.get('archived') === 'true';
  const all = crm.owners.filter((o) => o.archived === archived && (!email || o.email.toLowerCase() === email.toLowerCase()));
  const after = Number(req.query.get('after') ?? 0) || 0;
  const page = all.slice(after, after + limit);
  const next = after + limit < all.length ? String(after + limit) : null;
  return { status: 200, body: { results: page, ...(next ? { paging: { next: { after: next, link: `?after=${next}` } } } : {}) } };
}

/** `GET /crm/v3/owners/{ownerId}?idProperty=id|userId` */
export function getOwner(crm: Crm, req: ApiRequest, rawId: string): ApiResponse {
  const byUserId = req.query.get('idProperty') === 'userId';
  const owner = crm.owners.find((o) => (byUserId ? String(o.userId) : o.id) === decodeURIComponent(rawId));
  if (!owner) throw notFound();
  return { status: 200, body: owner };
}
