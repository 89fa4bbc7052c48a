/**
 * Ranked tool search: "schedule a meeting with Ana tomorrow" -> `calendar_create_event`.
 *
 * MiniSearch (BM25 over several fields with per-field boosts, prefix and fuzzy matching) scores each word of a query;
 * this file says what a tool's fields are, how words are normalized and how the words' scores add up. Names weigh most
 * (a tool's name is its summary), then title and aliases, then the description and the parameter names. Words are
 * folded to a light stem (Harman's "S" stemmer: plurals only, so "contacts" meets "contact" and "ids" meets "id"
 * without over-stemming "process" to "proc"), and "read", "retrieve" and "fetch" to "get": the Sheets and Docs tools
 * read and the workspace tools retrieve what the others get, one verb in several words. Words such as "Ana" or
 * "tomorrow" match nothing and simply do not count.
 *
 * A query word also has readings: the few verbs and nouns the tools use for what users say otherwise (a "meeting" is
 * an "event", to "find" or "list" is to "search", to "schedule" is to "create" an "event"). A word counts once in each
 * field of a tool, by its best reading there (a synonym's at three quarters of the word's own), and a tool's score,
 * the sum of its words', is multiplied by how many of the query's words it matches. Counting each synonym as a word
 * of its own let a tool that happened to say several synonyms of one word outrank the tool meant: "which" read as
 * list, get, read and search put `crm_contact_get` (which says all four) above `crm_contacts_search` for "which
 * contacts work at Acme", and "show" put `calendar_get_event_by_id` above `calendar_list_events` for "show events".
 *
 * A plural asks about several things. Each field is indexed a second time with its plurals only; a plural query word
 * scores there again (at three quarters) in the name, aliases, title and description, and in the parameters counts
 * only where the parameter's name is a plural too (a `title` parameter takes one title). So "comments on a page"
 * prefers `workspace_comments_list` to `workspace_comment_create`, and "sheet titles" the tool that returns them to
 * the one that takes a title. A plural, or a word before "id"/"ids" ("event id", "calendar ids": the user wants that
 * id), does not count for a read-only tool that takes one such thing by its id (an `event_id` parameter), unless the
 * tool's name speaks of several: such a tool needs the id and reads one, so "list databases" finds `workspace_search`
 * rather than `workspace_database_retrieve`, and "find event id" `calendar_list_events` rather than
 * `calendar_get_event_by_id`. A tool that changes one thing is still the one for changing several ("delete events").
 *
 * A description is indexed without the tool names in it. Descriptions name other tools to say where an input comes
 * from ("its id from workspace_search"); indexed, those words made the mentioning tool match the mentioned tool's name,
 * so "search a database by title" found `workspace_database_create` (which says its parent page comes from
 * `workspace_search`) above `workspace_search`. A tool's own name is in its name field; another tool's name says
 * nothing about what this one does. Every name and alias of the indexed tools is dropped where it stands as a whole
 * identifier; the rest of the sentence ("the parent page (its id from ...)") is kept, and "search" written as a word
 * of its own still counts.
 *
 * A description is indexed as prose: without its example (from a line starting "Example" to the end), a backticked
 * span of JSON, or an object in braces, such as a returned shape (`Returns {results: [{id, properties, updatedAt}],
 * paging}`) or a value written inline (`{"select": {"name": "Done"}}`). Their words are property names and sample
 * values, not what the tool does, and indexed they matched as words: "update" is the start of `updatedAt`, so
 * `crm_deals_search` (which returns it) ranked above `crm_deal_update` for "update deals", and an example's "Ana"
 * counted for "a meeting with Ana". The sentences around them stay, and so do names outside braces ("Returns the new
 * contact: id, properties, createdAt, updatedAt"): a description says in words what a tool does and returns.
 *
 * One index per connector instance, built on first use from that connector's tools; nothing at module level.
 *
 * @see https://lucaong.github.io/minisearch/
 * @see Harman, "How effective is suffixing?", JASIS 42(1), 1991 (the S stemmer)
 */
import MiniSearch from 'minisearch';
import type { ToolDefinition } from '../types.js';

export interface ToolSearchHit {
  name: string;
  score: number;
}

export interface ToolSearchOptions {
  /** At most this many hits (default 10). */
  limit?: number;
  /** Only these tool names (a session's tools). */
  among?: ReadonlySet<string>;
}

/** Words that say nothing about which tool is meant. */
const STOP_WORDS = new Set(
  'a an the and or of to in on at by for with from into my me i you your our we it its this that these those is are be can please some any all up'.split(' '),
);

/**
 * What users say -> what the tools say, keyed by stem: each entry is one reading of the word, of one or more words (to
 * "schedule" is to "create" an "event"). Only a query is expanded; the index holds the tools' own words. Kept to the
 * vocabulary of the five connectors.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  meeting: ['event'],
  appointment: ['event'],
  call: ['event'],
  schedule: ['create event'],
  book: ['create event'],
  reschedule: ['update event'],
  move: ['update'],
  cancel: ['delete'],
  remove: ['delete'],
  add: ['create', 'insert', 'append'],
  make: ['create'],
  new: ['create'],
  upcoming: ['list event'],
  // A question about what there is reads: "what meetings do I have tomorrow" lists events.
  what: ['list', 'get', 'search'],
  which: ['list', 'get', 'search'],
  agenda: ['list event'],
  write: ['update', 'create'],
  edit: ['update'],
  change: ['update'],
  modify: ['update'],
  find: ['search'],
  list: ['search', 'query'],
  lookup: ['search'],
  look: ['search'],
  show: ['list', 'get'],
  open: ['get'],
  // "an event's details": what a get returns.
  detail: ['get'],
  person: ['contact'],
  people: ['contact'],
  customer: ['contact', 'company'],
  lead: ['contact'],
  organization: ['company'],
  // To associate records is to make an association (crm_association_create), as HubSpot names it.
  associate: ['association'],
  // "who works at Acme": their company.
  work: ['company'],
  opportunity: ['deal'],
  note: ['page', 'workspace'],
  notion: ['workspace'],
  doc: ['document', 'docs'],
  spreadsheet: ['sheets'],
  sheet: ['sheets', 'spreadsheet'],
  cell: ['values', 'range'],
  table: ['database'],
  row: ['database', 'insert', 'append', 'values'],
  mail: ['email'],
};

/**
 * Readings of a word followed by "to", "into" or "in": what is written to something writes into a thing that exists
 * ("write to a sheet", "write into cells"), a change, never the making of a new one. Read as create too, "write"
 * let `sheets_create_spreadsheet` (a name saying "spreadsheet", which "sheet" reads as) outrank `sheets_update_values`
 * for "write to a sheet" as soon as one more tool said "update" in its name.
 */
const INTO: Readonly<Record<string, readonly string[]>> = { write: ['update'] };
const INTO_WORDS = new Set(['to', 'into', 'in']);

/** Harman's S stemmer: -ies -> -y, -es -> -e, -s -> '' with its exceptions. */
export function stem(word: string): string {
  if (word.length <= 2) return word;
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && !word.endsWith('aes') && !word.endsWith('ees') && !word.endsWith('oes')) return word.slice(0, -1);
  if (word.endsWith('s') && !word.endsWith('us') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Splits on anything but letters and digits (so `calendar_create_event` is three words); "e-mail" is one. */
function tokenize(text: string): string[] {
  return text.replace(/\be-mail/gi, 'email').split(/[^\p{L}\p{N}]+/u);
}

/**
 * Words the tools use for one thing, folded to one in the index and in a query as a plural is to its singular: the
 * Sheets and Docs tools "read" and the workspace tools "retrieve" what the others "get" (`sheets_get_values` is titled
 * "Read spreadsheet values").
 */
const SAME: Readonly<Record<string, string>> = { read: 'get', retrieve: 'get', fetch: 'get' };

/** A word as the index holds it: lower case, stemmed, folded; null for a stop word or a single character. */
function normalize(term: string): string | null {
  const word = term.toLowerCase();
  if (word.length < 2 || STOP_WORDS.has(word)) return null;
  const stemmed = stem(word);
  return SAME[stemmed] ?? stemmed;
}

/** "events", "companies": a word the stemmer shortens. */
function isPlural(term: string): boolean {
  const word = term.toLowerCase();
  return stem(word) !== word;
}

/** The fields of a tool, with their weights. */
const BOOST = { name: 4, title: 2, aliases: 1.5, description: 1, parameters: 0.7 } as const;
type Field = keyof typeof BOOST;
const FIELDS = Object.keys(BOOST) as Field[];

/**
 * Every field is indexed a second time with its plurals only, as `plural:<field>`. For a plural query word, a plural
 * in the name, aliases, title or description counts again, at this much of the field's weight: the tool is about
 * several such things. In the parameters only a plural counts: a parameter's number is how many the tool takes.
 */
const PLURAL = 'plural:';
const PLURAL_FIELDS = FIELDS.map((field) => PLURAL + field);
const PLURAL_WEIGHT = 0.75;

/** What a synonym's match counts for against a match of the user's own word. */
const SYNONYM_WEIGHT = 0.75;

function indexTerm(term: string, field = ''): string | null {
  const word = normalize(term);
  return word !== null && field.startsWith(PLURAL) && !isPlural(term) ? null : word;
}

/**
 * A query word: its readings (the word itself, then its synonyms); whether it is a plural; and whether it asks about
 * several things or for a thing's id ("events", "event id"), which a read-only tool that takes one such thing by its
 * id does not answer.
 */
interface QueryWord {
  readings: string[][];
  plural: boolean;
  notOne: boolean;
}

const ID = new Set(['id', 'ids']);

function queryWords(query: string): QueryWord[] {
  const words = new Map<string, QueryWord>();
  const tokens = tokenize(query);
  tokens.forEach((token, i) => {
    const word = normalize(token);
    if (word === null) return;
    const plural = isPlural(token);
    const notOne = plural || (ID.has(tokens[i + 1]?.toLowerCase() ?? '') && !ID.has(token.toLowerCase()));
    const seen = words.get(word);
    if (seen) {
      seen.plural ||= plural;
      seen.notOne ||= notOne;
      return;
    }
    const into = INTO_WORDS.has(tokens[i + 1]?.toLowerCase() ?? '') ? INTO[word] : undefined;
    const synonyms = (into ?? SYNONYMS[word] ?? []).map((reading) => reading.split(' ').map((w) => normalize(w) ?? w));
    words.set(word, { readings: [[word], ...synonyms], plural, notOne });
  });
  return [...words.values()];
}

interface ToolDocument {
  id: string;
  name: string;
  aliases: string;
  title: string;
  description: string;
  parameters: string;
}

/** Matches any of `names` as a whole identifier, not as the start or end of a longer one. */
function namesPattern(names: readonly string[]): RegExp {
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${escaped.join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
}

/**
 * A description's prose: without its example (from a line starting "Example" to the end), backticked JSON (a span
 * opening with `{`, `[` or `"`), and objects in braces, innermost first so nested ones go whole.
 */
function prose(description: string): string {
  let text = description.replace(/^Example\b[\s\S]*/m, ' ').replace(/`[[{"][^`]*`/g, ' ');
  for (let before = ''; before !== text; ) [before, text] = [text, text.replace(/\{[^{}]*\}/g, ' ')];
  return text;
}

function toDocument(tool: ToolDefinition, toolNames: RegExp): ToolDocument {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
  return {
    id: tool.name,
    name: tool.name,
    aliases: tool.aliases.join(' '),
    title: tool.title,
    description: prose(tool.description).replace(toolNames, ' '),
    // Version selectors (`schema_version`, ...) are on most tools and say nothing about what one does.
    parameters: Object.keys(properties).filter((name) => !tool.versionParameters.includes(name)).join(' '),
  };
}

/**
 * The things a read-only tool takes one of by its id (`event_id`: event), unless its name speaks of several of them
 * (`workspace_database_query_properties` takes one or more property ids in `property_id`). A tool that changes one
 * thing is still the tool for changing several, once each.
 */
function takesOne(tool: ToolDefinition): string[] {
  if (!tool.annotations.readOnly) return [];
  const several = new Set(tokenize(tool.name).filter(isPlural).map(normalize));
  return Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>)
    .map((name) => /([a-z]+)_id$/.exec(name)?.[1])
    .map((noun) => (noun === undefined ? null : normalize(noun)))
    .filter((noun): noun is string => noun !== null && !several.has(noun));
}

export class ToolSearch {
  readonly #index: MiniSearch<ToolDocument>;
  /** Word -> the tools that take one such thing by its id. */
  readonly #takesOne = new Map<string, Set<string>>();

  constructor(tools: readonly ToolDefinition[]) {
    this.#index = new MiniSearch<ToolDocument>({
      fields: [...FIELDS, ...PLURAL_FIELDS],
      extractField: (document, field) => document[(field.startsWith(PLURAL) ? field.slice(PLURAL.length) : field) as keyof ToolDocument],
      tokenize,
      processTerm: indexTerm,
      searchOptions: {
        // #termScores() asks for one normalized word in one field at a time.
        tokenize: (term) => [term],
        processTerm: (term) => term,
        // "date" finds "start_datetime" by prefix; a typo of a longer word still matches.
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
      },
    });
    if (tools.length === 0) return;
    const toolNames = namesPattern(tools.flatMap((tool) => [tool.name, ...tool.aliases]));
    this.#index.addAll(tools.map((tool) => toDocument(tool, toolNames)));
    for (const tool of tools) {
      for (const word of takesOne(tool)) {
        const names = this.#takesOne.get(word) ?? new Set<string>();
        this.#takesOne.set(word, names.add(tool.name));
      }
    }
  }

  /** Tools best matching `query`, best first; an empty query (or one of stop words only) finds nothing. */
  search(query: string, options: ToolSearchOptions = {}): ToolSearchHit[] {
    const among = options.among;
    const totals = new Map<string, { score: number; words: number }>();
    for (const word of queryWords(query)) {
      // A word counts once in each field of a tool, by the best of its readings there: `sheets_update_values` says
      // "update" in its name and "write" in its title, and "write" (read as itself or as update) counts in both.
      const best = new Map<string, Map<Field, number>>();
      word.readings.forEach((reading, i) => {
        const weight = i === 0 ? 1 : SYNONYM_WEIGHT;
        const sum = new Map<string, Map<Field, number>>();
        for (const term of reading) {
          for (const [name, fields] of this.#termScores(term, word)) {
            const into = sum.get(name) ?? new Map<Field, number>();
            for (const [field, score] of fields) into.set(field, (into.get(field) ?? 0) + score);
            sum.set(name, into);
          }
        }
        for (const [name, fields] of sum) {
          const into = best.get(name) ?? new Map<Field, number>();
          for (const [field, score] of fields) into.set(field, Math.max(into.get(field) ?? 0, score * weight));
          best.set(name, into);
        }
      });
      for (const [name, fields] of best) {
        if (among !== undefined && !among.has(name)) continue;
        const total = totals.get(name) ?? { score: 0, words: 0 };
        let score = 0;
        for (const fieldScore of fields.values()) score += fieldScore;
        totals.set(name, { score: total.score + score, words: total.words + 1 });
      }
    }
    // As MiniSearch ranks an OR query: a tool matching more of the query's words comes first.
    return [...totals]
      .map(([name, total]) => ({ name, score: total.score * total.words }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.limit ?? 10);
  }

  /**
   * One term's BM25 score per tool and field, plurals agreeing (PLURAL_WEIGHT) for a plural word; for a word about
   * several things or an id, a read-only tool that takes one such thing by its id scores nothing.
   */
  #termScores(term: string, word: QueryWord): Map<string, Map<Field, number>> {
    const scores = new Map<string, Map<Field, number>>();
    const skip = word.notOne ? this.#takesOne.get(term) : undefined;
    const search = (field: Field, indexed: string, boost: number, exact: boolean) => {
      const options = { fields: [indexed], boost: { [indexed]: boost }, ...(exact ? { prefix: false, fuzzy: false } : {}) };
      for (const hit of this.#index.search(term, options)) {
        const name = hit.id as string;
        if (skip?.has(name)) continue;
        const fields = scores.get(name) ?? new Map<Field, number>();
        scores.set(name, fields.set(field, (fields.get(field) ?? 0) + hit.score));
      }
    };
    for (const field of FIELDS) {
      if (word.plural && field === 'parameters') search(field, PLURAL + field, BOOST[field], true);
      else search(field, field, BOOST[field], false);
      if (word.plural && field !== 'parameters') search(field, PLURAL + field, PLURAL_WEIGHT * BOOST[field], true);
    }
    return scores;
  }
}
