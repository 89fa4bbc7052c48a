import { isDefaultAssociationPath } from './associations.js';
import { HubSpotApiError } from './errors.js';
import { OBJECT_TYPES, RECORD_TYPES, type ObjectType, type RecordType } from './schema.js';

/** Where HubSpot's MISSING_SCOPES answer points. */
export const SCOPES_DOC_URL = 'https://developers.hubspot.com/scopes';

/**
 * The granular scope a CRM v3 call needs, or null for a path the router will refuse anyway. Reads (GET, and the
 * POST search, which only reads) need `crm.objects.{type}.read`; create, update and archive need `.write`; owners
 * need `crm.objects.owners.read`; notes those of contacts (`crm.objects.contacts.read`, `.write`, as HubSpot's notes guide lists); the deal pipelines `crm.objects.deals.read`; the v4 default association the from
 * record's `crm.objects.{type}.write`.
 * @see https://developers.hubspot.com/docs/api/scopes
 */
export function requiredScope(method: string, segs: readonly string[]): string | null {
  // v4 default association: HubSpot's reference lists many object scopes, any one of them admitting the call; the
  // sandbox asks for the write scope of the record the link is made from (crm.objects.deals.write for a deal).
  if (segs[0] === 'crm' && segs[1] === 'v4') return isDefaultAssociationPath(segs) && RECORD_TYPES.includes(segs[3] as RecordType) ? `crm.objects.${segs[3]}.write` : null;
  if (segs[0] !== 'crm' || segs[1] !== 'v3') return null;
  if (segs[2] === 'owners') return 'crm.objects.owners.read';
  // Reading deal pipelines: HubSpot admits any of several scopes (the guide lists them), crm.objects.deals.read
  // among them; the sandbox asks for that one.
  if (segs[2] === 'pipelines') return segs[3] === 'deals' && method === 'GET' ? 'crm.objects.deals.read' : null;
  if (segs[2] !== 'objects' || !OBJECT_TYPES.includes(segs[3] as ObjectType)) return null;
  const isSearch = segs[4] === 'search' && segs.length === 5 && method === 'POST';
  // Notes: HubSpot's notes guide lists crm.objects.contacts.read and crm.objects.contacts.write as their scopes.
  const scoped = segs[3] === 'notes' ? 'contacts' : segs[3];
  return `crm.objects.${scoped}.${method === 'GET' || isSearch ? 'read' : 'write'}`;
}

/**
 * Refuses a token that lacks `scope` with HubSpot's 403 MISSING_SCOPES body. A token with no scopes at all was minted
 * by the sandbox control API for a test (`control.issueTokens` without `scopes`) and is not restricted: HubSpot's
 * own authorize endpoint never grants an empty scope list (the sandbox's refuses one too).
 */
export function requireScope(granted: readonly string[], scope: string | null): void {
  if (scope === null || granted.length === 0 || granted.includes(scope)) return;
  throw new HubSpotApiError(403, 'MISSING_SCOPES', `This app hasn't been granted all required scopes to make this call. Read more about required scopes here: ${SCOPES_DOC_URL}.`, {
    errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: [scope] } }],
    links: { scopes: SCOPES_DOC_URL },
  });
}
