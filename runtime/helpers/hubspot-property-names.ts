/**
 * HubSpot property names as agents give them. HubSpot's API names a property by its internal name (`firstname`,
 * `lifecyclestage`, `dealstage`, `closedate`), never by its label ("First Name", "Lifecycle Stage"), and an internal
 * name never holds whitespace. A label is not refused by HubSpot: in a `properties` list it is silently ignored (the
 * answer lacks the property) and a search filter on one finds nothing, so the agent gets a success with missing data.
 * The one rule, for every place a tool takes a property name: a name with whitespace is refused before anything is
 * sent, saying what to send instead. A name without whitespace is left to HubSpot (a one-word label such as "Email"
 * is not guessed at).
 * @see https://developers.hubspot.com/docs/api/crm/properties
 */
import type { Violation } from '../types.js';
import { pointerToken } from '../validation/violations.js';

const LONGEST_QUOTED = 80;

/** The name as given, quoted, clipped when long. */
function quoted(name: string): string {
  return JSON.stringify(name.length > LONGEST_QUOTED ? `${name.slice(0, LONGEST_QUOTED)}…` : name);
}

/**
 * Why `name` (a non-blank property name, at `where`, e.g. `properties` or `filterGroups[0].filters[0].propertyName`)
 * cannot be an internal name, or undefined when it may be one.
 */
export function propertyNameProblem(name: string, where: string): string | undefined {
  const trimmed = name.trim();
  if (/\s/.test(trimmed)) {
    return `${where}: ${quoted(name)} looks like a property's label; HubSpot takes its internal name, lower case without spaces (e.g. firstname, lastname, email, lifecyclestage, dealstage, closedate)`;
  }
  if (trimmed !== name) return `${where}: ${quoted(name)} has whitespace around it; HubSpot's internal property names have none (send ${quoted(trimmed)})`;
  return undefined;
}

/**
 * The `check` rule of a comma-separated `properties` parameter (the CRM tools' properties to return, split by
 * `splitList`, which trims each item and drops empty ones): every item that {@link propertyNameProblem} refuses, at
 * the parameter's pointer.
 */
export function checkHubspotPropertyList(value: unknown, pointer: string): Violation[] {
  if (typeof value !== 'string') return [];
  const where = pointer.slice(1);
  return value
    .split(',')
    .map((item) => item.trim())
    .flatMap((item) => {
      const message = item === '' ? undefined : propertyNameProblem(item, where);
      return message === undefined ? [] : [{ pointer, message, keyword: 'pattern' }];
    });
}

/**
 * The `check` rule of an open map of property name -> value (`crm_contact_update`'s `props`; the company and deal
 * checks start from it): every key that {@link propertyNameProblem} refuses, at the key's own pointer. A label there
 * is not ignored as in a list: HubSpot refuses the write (PROPERTY_DOESNT_EXIST), after the round trip.
 */
export function checkHubspotPropertyMap(value: unknown, pointer: string): Violation[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const where = pointer.slice(1);
  return Object.keys(value).flatMap((name): Violation[] => {
    const message = propertyNameProblem(name, where);
    return message === undefined ? [] : [{ pointer: `${pointer}/${pointerToken(name)}`, message, keyword: 'pattern' }];
  });
}

/**
 * A company's `domain` as HubSpot keeps it: the domain alone (acme.com), which HubSpot matches contacts by and a search
 * compares exactly, so a URL finds no company. Why `value` is not one, naming the bare domain (`without protocol or
 * path: "acme.com", not "https://acme.com/"`), or undefined. A search's `*` wildcard at either end is no path.
 */
export function domainProblem(value: string): string | undefined {
  if (!/[/:\s]/.test(value.replace(/^\*|\*$/g, ''))) return undefined;
  const bare = value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#\s]/)[0];
  return `without protocol or path: ${JSON.stringify(bare)}, not ${JSON.stringify(value)}`;
}
