import { ASSOCIATION_TYPES, COMPUTED, CREATED_PROP, DEFAULT_ASSOCIATION_TYPE_IDS, DEFAULT_PROPERTIES, ENUMS, MODIFIED_PROP, OBJECT_TYPE_NAMES, REQUIRED_ON_CREATE, WRITABLE, optionLabelOf, type ObjectType, type RecordType } from './schema.js';
import { valueText } from '../../core/value-text.js';
import { HubSpotApiError, invalid, isObject } from './errors.js';
import { seedSampleCrm } from './sample-data.js';

export interface CrmObject {
  id: string;
  /** Every value is a string (or null when cleared), as HubSpot stores them. */
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
}

/** An association as made: from a record (the new one, or the default link's from record) to another, with its HubSpot-defined type ids. */
export interface Association {
  from: { type: ObjectType; id: string };
  to: { type: ObjectType; id: string };
  typeIds: number[];
}

export interface Owner {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  userId: number;
  userIdIncludingInactive: number;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  type: 'PERSON';
  teams: { id: string; name: string; primary: boolean }[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Writable datetime properties among the sandbox's (HubSpot's `closedate` and a note's `hs_timestamp`, type `datetime`). */
const DATETIME: ReadonlySet<string> = new Set(['closedate', 'hs_timestamp']);
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/**
 * A value HubSpot takes for a datetime property: epoch milliseconds, or an ISO 8601 date or date-time naming a real
 * day. Anything else is refused (HubSpot reads a non-ISO value as epoch milliseconds, hence INVALID_LONG; its exact
 * wording for this refusal is not documented).
 * @see https://developers.hubspot.com/docs/api/crm/properties#date-and-datetime-properties
 */
function isHubSpotDateTime(v: string): boolean {
  if (/^-?\d+$/.test(v)) return true;
  const m = ISO_DATE.exec(v);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day && instantText(v) !== undefined;
}

/**
 * The instant, in epoch milliseconds, a date-time value names as HubSpot reads it (epoch milliseconds, an ISO date at
 * midnight UTC, an ISO date-time), or undefined when it names none: the one reading of {@link isHubSpotDateTime} and
 * {@link instantOf}.
 */
function instantText(v: string): number | undefined {
  if (/^-?\d+$/.test(v)) return Number(v);
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  return Number.isNaN(t) ? undefined : t;
}

/** The computed date-time properties (each type's created and modified dates), kept as ISO 8601 instants. */
const COMPUTED_DATETIME: ReadonlySet<string> = new Set([...Object.values(CREATED_PROP), ...Object.values(MODIFIED_PROP)]);

/**
 * The instant, in epoch milliseconds, a value of a date-time property names (closedate, a note's hs_timestamp, the
 * created and modified dates), or undefined for another property or a value naming none. HubSpot keeps a date-time as
 * an instant, whatever form it was written in (epoch milliseconds, an ISO date, a date-time with any offset), so its
 * search filters and sorts compare instants: "1772445600000" is later than "2026-03-02T09:30:00Z".
 */
export function instantOf(property: string, value: string): number | undefined {
  return DATETIME.has(property) || COMPUTED_DATETIME.has(property) ? instantText(value) : undefined;
}

/**
 * The allowed options as HubSpot lists them in an INVALID_OPTION message: each option's protobuf text, e.g.
 * `[label: "Low"\nvalue: "low"\ndisplay_order: 0\n..., label: ...]`.
 */
function optionList(property: string, values: readonly string[]): string {
  const one = (value: string, i: number) =>
    `label: "${optionLabelOf(property, value)}"\nvalue: "${value}"\ndisplay_order: ${i}\ndouble_data: 0.0\nhidden: false\ndescription: ""\nread_only: false\n`;
  return `[${values.map(one).join(', ')}]`;
}

/** Converts a request value to HubSpot's string form; refuses objects and arrays. */
function asString(name: string, v: unknown): string | null {
  if (v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw invalid(`Property values were not valid: [{"isValid":false,"message":"${name} must be a string, number or boolean","error":"INVALID_PROPERTY_VALUE","name":"${name}"}]`);
}

/**
 * HubSpot's refusal of association ids that name no record: 400 VALIDATION_ERROR "One or more associations are
 * invalid", context `INVALID_OBJECT_IDS: ["CONTACT=38374264688 is not valid"]`, `objectId`, `objectType` (the answer
 * quoted in HubSpot/hubspot-api-nodejs#646, to a v4 association PUT).
 */
function invalidObjectIds(badIds: readonly { id: string; type: ObjectType }[]): HubSpotApiError {
  return invalid('One or more associations are invalid', {
    context: {
      INVALID_OBJECT_IDS: badIds.map((b) => `${OBJECT_TYPE_NAMES[b.type]}=${b.id} is not valid`),
      objectId: badIds.map((b) => b.id),
      objectType: badIds.map((b) => OBJECT_TYPE_NAMES[b.type]),
    },
  });
}

/** One sandbox user's CRM: one owner (the user) and the sample companies, contacts and deals (sample-data.ts). */
export class Crm {
  readonly objects: Record<ObjectType, Map<string, CrmObject>> = { contacts: new Map(), companies: new Map(), deals: new Map(), notes: new Map() };
  readonly owners: Owner[];
  /** Associations made on create or by the default link; HubSpot's are two-way, so each is read from either end. */
  associations: Association[] = [];
  private nextId: Record<ObjectType, number> = { contacts: 101, companies: 20_001, deals: 30_001, notes: 40_001 };

  constructor(user: string, now: number) {
    const [local = user] = user.split('@');
    const [first = local, last = ''] = local.split(/[._-]/);
    const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    const t = new Date(now).toISOString();
    this.owners = [
      {
        id: '75480001',
        email: user,
        firstName: cap(first),
        lastName: cap(last) || 'Sandbox',
        userId: 9_100_001,
        userIdIncludingInactive: 9_100_001,
        createdAt: t,
        updatedAt: t,
        archived: false,
        type: 'PERSON',
        teams: [],
      },
    ];
    seedSampleCrm(this, this.owners[0]!.id, now);
  }

  /**
   * Validates and normalizes written properties: known names, enumeration values, e-mail form, owner ids.
   * @see https://developers.hubspot.com/docs/guides/api/crm/owners
   */
  cleanProperties(type: ObjectType, input: unknown): Record<string, string | null> {
    if (!isObject(input)) throw invalid('Invalid input JSON: properties must be an object');
    const out: Record<string, string | null> = {};
    const errors: { isValid: false; message: string; error: string; name: string }[] = [];
    for (const [name, raw] of Object.entries(input)) {
      if (COMPUTED.has(name)) {
        errors.push({ isValid: false, message: `${name} is a read only property; its value cannot be set.`, error: 'READ_ONLY_VALUE', name });
        continue;
      }
      if (!WRITABLE[type].has(name)) {
        errors.push({ isValid: false, message: `Property "${name}" does not exist`, error: 'PROPERTY_DOESNT_EXIST', name });
        continue;
      }
      // HubSpot ignores null in a property write; only "" clears a value (stored here as null, read back as null).
      if (raw === null) continue;
      const v = asString(name, raw);
      const allowed = ENUMS[name];
      if (v && allowed && !allowed.includes(v)) {
        errors.push({ isValid: false, message: `${v} was not one of the allowed options: ${optionList(name, allowed)}`, error: 'INVALID_OPTION', name });
        continue;
      }
      // The Owners guide: an owner's `id` assigns a record; its `userId` "will result in an error if it is used to
      // assign ownership". HubSpot's code for it is INVALID_OWNER_ID (a contact create refused so, HubSpot community);
      // the message is the sandbox's.
      if (v && name === 'hubspot_owner_id' && !this.owners.some((o) => o.id === v && !o.archived)) {
        errors.push({ isValid: false, message: `${v} is not the id of an owner of this account (GET /crm/v3/owners lists them; an owner's userId is not its id)`, error: 'INVALID_OWNER_ID', name });
        continue;
      }
      if (v && name === 'email' && !EMAIL.test(v)) {
        errors.push({ isValid: false, message: `Email address ${v} is invalid`, error: 'INVALID_EMAIL', name });
        continue;
      }
      if (v && DATETIME.has(name) && !isHubSpotDateTime(v)) {
        errors.push({ isValid: false, message: `${v} was not a valid long.`, error: 'INVALID_LONG', name });
        continue;
      }
      if (v && (name === 'amount' || name === 'numberofemployees' || name === 'annualrevenue') && Number.isNaN(Number(v))) {
        errors.push({ isValid: false, message: `${v} was not a valid number.`, error: 'INVALID_FLOAT', name });
        continue;
      }
      out[name] = v === '' ? null : v;
    }
    if (errors.length) {
      throw invalid(`Property values were not valid: ${JSON.stringify(errors)}`, { errors: errors.map((e) => ({ message: e.message, code: e.error, context: { propertyName: [e.name] } })) });
    }
    return out;
  }

  /**
   * Refuses a create that leaves out a property the type requires ({@link REQUIRED_ON_CREATE}) as HubSpot does: 400
   * VALIDATION_ERROR "Error creating NOTE.  Some required properties were not set.", context `properties` naming
   * them (the answer quoted in HubSpot/hubspot-api-nodejs#124).
   */
  checkRequired(type: ObjectType, props: Record<string, string | null>): void {
    const missing = (REQUIRED_ON_CREATE[type] ?? []).filter((name) => !props[name]);
    if (missing.length) throw invalid(`Error creating ${OBJECT_TYPE_NAMES[type]}.  Some required properties were not set.`, { context: { properties: missing } });
  }

  /** Enforces the unique contact e-mail: 409 naming the existing id. */
  checkEmailUnique(email: string | null | undefined, exceptId?: string): void {
    if (!email) return;
    for (const c of this.objects.contacts.values()) {
      if (c.id !== exceptId && !c.archived && c.properties.email?.toLowerCase() === email.toLowerCase()) {
        throw new HubSpotApiError(409, 'CONFLICT', `Contact already exists. Existing ID: ${c.id}`);
      }
    }
  }

  /**
   * The `associations` of a create body, checked before the record is made: each `{to: {id}, types:
   * [{associationCategory, associationTypeId}]}` names a HubSpot-defined type from `type` and a live record of the
   * type it links to. HubSpot refuses an id that names no record 400 VALIDATION_ERROR "One or more associations are
   * invalid", context `INVALID_OBJECT_IDS: ["CONTACT=38374264688 is not valid"]`, `objectId`, `objectType` (the
   * answer quoted in HubSpot/hubspot-api-nodejs#646), and an unknown type with `INVALID_ASSOCIATION_TYPE_ID:
   * ["USER_DEFINED=3 is not a valid association definition id"]`.
   */
  checkAssociations(type: ObjectType, input: unknown): Omit<Association, 'from'>[] {
    if (input === undefined || input === null) return [];
    if (!Array.isArray(input)) throw invalid('Invalid input JSON: associations must be an array');
    const links: Omit<Association, 'from'>[] = [];
    const badIds: { id: string; type: ObjectType }[] = [];
    const badSpecs: string[] = [];
    input.forEach((a, i) => {
      const id = isObject(a) && isObject(a.to) && (typeof a.to.id === 'string' || typeof a.to.id === 'number') ? String(a.to.id) : undefined;
      if (id === undefined || !isObject(a) || !Array.isArray(a.types) || a.types.length === 0) throw invalid(`Invalid input JSON: associations[${i}] needs to.id and types`);
      const targets = new Set<ObjectType>();
      const typeIds: number[] = [];
      for (const t of a.types) {
        const category = isObject(t) ? t.associationCategory : undefined;
        const typeId = isObject(t) ? t.associationTypeId : undefined;
        const to = category === 'HUBSPOT_DEFINED' && typeof typeId === 'number' ? ASSOCIATION_TYPES[type][typeId] : undefined;
        // A value that is absent or no string is quoted as JSON (null when absent), never printed as undefined or [object Object].
        if (to === undefined) badSpecs.push(`${valueText(category ?? null)}=${valueText(typeId ?? null)}`);
        else {
          targets.add(to);
          typeIds.push(typeId as number);
        }
      }
      for (const to of targets) {
        const target = this.objects[to].get(id);
        if (!target || target.archived) badIds.push({ id, type: to });
        else links.push({ to: { type: to, id }, typeIds });
      }
    });
    if (badSpecs.length) {
      throw invalid('One or more associations are invalid', {
        context: { associationSpec: badSpecs, INVALID_ASSOCIATION_TYPE_ID: badSpecs.map((s) => `${s} is not a valid association definition id`) },
      });
    }
    if (badIds.length) throw invalidObjectIds(badIds);
    return links;
  }

  /**
   * Links two existing records with the default (unlabelled) association type from `from.type` to `to.type`
   * ({@link DEFAULT_ASSOCIATION_TYPE_IDS}), as HubSpot's v4 "Associate records (default)" does, and returns that
   * type id. Either record missing or archived is refused as a create body's unknown id is ({@link
   * checkAssociations}), naming each. A pair already linked, from either end and with any type, stays as it is:
   * HubSpot stores one association a pair, so a repeat links nothing more.
   */
  associateDefault(from: { type: RecordType; id: string }, to: { type: RecordType; id: string }): number {
    const badIds = [from, to].filter((r) => {
      const obj = this.objects[r.type].get(r.id);
      return !obj || obj.archived;
    });
    if (badIds.length) throw invalidObjectIds(badIds);
    const typeId = DEFAULT_ASSOCIATION_TYPE_IDS[from.type][to.type];
    if (!this.associatedIds(from.type, from.id, to.type).has(to.id)) this.associate(from.type, from.id, [{ to, typeIds: [typeId] }]);
    return typeId;
  }

  /** Stores checked associations from a record ({@link checkAssociations}, {@link associateDefault}). */
  associate(type: ObjectType, id: string, links: Omit<Association, 'from'>[]): void {
    // A state file saved before associations existed revives a Crm without the field.
    this.associations ??= [];
    for (const link of links) this.associations.push({ from: { type, id }, ...link });
  }

  /** The ids of the `toType` records associated with a record, from either end. */
  associatedIds(type: ObjectType, id: string, toType: ObjectType): Set<string> {
    const ids = new Set<string>();
    for (const a of this.associations ?? []) {
      if (a.from.type === type && a.from.id === id && a.to.type === toType) ids.add(a.to.id);
      if (a.to.type === type && a.to.id === id && a.from.type === toType) ids.add(a.from.id);
    }
    return ids;
  }

  create(type: ObjectType, props: Record<string, string | null>, now: number): CrmObject {
    const id = String(this.nextId[type]++);
    const t = new Date(now).toISOString();
    if (type === 'deals' && props.pipeline === undefined) props.pipeline = 'default';
    const obj: CrmObject = {
      id,
      properties: { ...props, hs_object_id: id, [CREATED_PROP[type]]: t, [MODIFIED_PROP[type]]: t },
      createdAt: t,
      updatedAt: t,
      archived: false,
    };
    if (type === 'contacts' && obj.properties.email) obj.properties.email = obj.properties.email.toLowerCase();
    this.objects[type].set(id, obj);
    return obj;
  }

  update(type: ObjectType, obj: CrmObject, props: Record<string, string | null>, now: number): void {
    const t = new Date(now).toISOString();
    Object.assign(obj.properties, props, { [MODIFIED_PROP[type]]: t });
    obj.updatedAt = t;
  }
}

/** Parses `properties` given comma-joined, repeated, or both. */
export function requestedProperties(q: URLSearchParams): string[] | null {
  const all = q.getAll('properties').flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
  return all.length ? all : null;
}

/**
 * A `SimplePublicObject`: the requested properties that exist (unknown names silently ignored), plus the ones HubSpot
 * always adds (`hs_object_id`, created and modified dates), or the type's default set.
 */
export function render(type: ObjectType, obj: CrmObject, requested: string[] | null): Record<string, unknown> {
  const names = requested
    ? [...new Set([...requested.filter((n) => WRITABLE[type].has(n) || COMPUTED.has(n)), 'hs_object_id', CREATED_PROP[type], MODIFIED_PROP[type]])]
    : DEFAULT_PROPERTIES[type];
  const properties: Record<string, string | null> = {};
  for (const n of [...names].sort()) properties[n] = obj.properties[n] ?? null;
  return {
    id: obj.id,
    properties,
    createdAt: obj.createdAt,
    updatedAt: obj.updatedAt,
    archived: obj.archived,
    ...(obj.archivedAt ? { archivedAt: obj.archivedAt } : {}),
  };
}
