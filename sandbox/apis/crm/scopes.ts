import { isDefaultAssociationPath } from './associations.js';
import { HubSpotApiError } from './errors.js';
import { OBJECT_TYPES, RECORD_TYPES, type ObjectType, type RecordType } from './schema.js';

/** Where HubSpot's MISSING_SCOPES answer points. */
export const SCOPES_DOC_URL = 'https://developers.hubspot.com/scopes';

/**
 * The granular scopes HubSpot names for a contact, company or deal call, any one of which admits it: the object's
 * schema, sensitive, plain and highly sensitive scope of the access (`read` or `write`). HubSpot's "Using Object APIs"
 * guide shows reading deals without crm.objects.deals.read answered "One or more of the following scopes are
 * required." with crm.schemas.deals.read, crm.objects.deals.sensitive.read.v2, crm.objects.deals.read and
 * crm.objects.deals.highly_sensitive.read.v2; refused writes quoted from HubSpot name the same four kinds of write
 * scope (a company update: crm.objects.companies.{highly_sensitive.write.v2, sensitive.write.v2, write} and
 * crm.schemas.companies.write; a custom object create: crm.schemas.custom.write, crm.objects.custom.write and its
 * two sensitive write scopes).
 * @see https://developers.hubspot.com/docs/api-reference/latest/crm/using-object-apis
 */
function objectScopes(type: string, access: 'read' | 'write'): string[] {
  return [`crm.schemas.${type}.${access}`, `crm.objects.${type}.sensitive.${access}.v2`, `crm.objects.${type}.${access}`, `crm.objects.${type}.highly_sensitive.${access}.v2`];
}

/**
 * The granular scopes a CRM v3 call needs, any one of them admitting it, as HubSpot's MISSING_SCOPES answer lists them;
 * null for a path the router will refuse anyway. Contacts, companies and deals: reads (GET, and the POST search, which
 * only reads) {@link objectScopes} `read`, create, update and archive `write`. Where no refusal of HubSpot's is on
 * record the sandbox names the one scope HubSpot's reference gives: owners `crm.objects.owners.read` (a refusal
 * quoted from HubSpot names that one alone); notes those of contacts (`crm.objects.contacts.read`, `.write`, as
 * HubSpot's notes guide lists); the deal pipelines `crm.objects.deals.read`; the v4 default association the from
 * record's `crm.objects.{type}.write`.
 * @see https://developers.hubspot.com/docs/api/scopes
 */
export function requiredScopes(method: string, segs: readonly string[]): readonly string[] | null {
  // v4 default association: HubSpot's reference lists many object scopes, any one of them admitting the call; the
  // sandbox asks for the write scope of the record the link is made from (crm.objects.deals.write for a deal).
  if (segs[0] === 'crm' && segs[1] === 'v4') return isDefaultAssociationPath(segs) && RECORD_TYPES.includes(segs[3] as RecordType) ? [`crm.objects.${segs[3]}.write`] : null;
  if (segs[0] !== 'crm' || segs[1] !== 'v3') return null;
  if (segs[2] === 'owners') return ['crm.objects.owners.read'];
  // Reading deal pipelines: HubSpot admits any of several scopes (the guide lists them), crm.objects.deals.read
  // among them; the sandbox asks for that one.
  if (segs[2] === 'pipelines') return segs[3] === 'deals' && method === 'GET' ? ['crm.objects.deals.read'] : null;
  if (segs[2] !== 'objects' || !OBJECT_TYPES.includes(segs[3] as ObjectType)) return null;
  const isSearch = segs[4] === 'search' && segs.length === 5 && method === 'POST';
  const access = method === 'GET' || isSearch ? 'read' : 'write';
  // Notes: HubSpot's notes guide lists crm.objects.contacts.read and crm.objects.contacts.write as their scopes.
  return segs[3] === 'notes' ? [`crm.objects.contacts.${access}`] : objectScopes(segs[3] as string, access);
}

/**
 * Refuses a token that holds none of `scopes` with HubSpot's 403 MISSING_SCOPES body, naming them all ("One or more
 * of the following scopes are required."). A token with no scopes at all was minted by the sandbox control API for a
 * test (`control.issueTokens` without `scopes`) and is not restricted: HubSpot's own authorize endpoint never grants
 * an empty scope list (the sandbox's refuses one too).
 */
export function requireScope(granted: readonly string[], scopes: readonly string[] | null): void {
  if (scopes === null || granted.length === 0 || scopes.some((s) => granted.includes(s))) return;
  throw new HubSpotApiError(403, 'MISSING_SCOPES', `This app hasn't been granted all required scopes to make this call. Read more about required scopes here: ${SCOPES_DOC_URL}.`, {
    errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: [...scopes] } }],
    links: { scopes: SCOPES_DOC_URL },
  });
}
