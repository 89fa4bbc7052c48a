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
 * A description is indexed without the tool names in it. Descriptions name other tools to say where an input comes
 * from ("its id from workspace_search"); indexed, those words made the mentioning tool match the mentioned tool's name,
 * so "search a database by title" found `workspace_database_create` (which says its parent page comes from
 * `workspace_search`) above `workspace_search`. A tool's own name is in its name field; another tool's name says
 * nothing about what this one does. Every name and alias of the indexed tools is dropped where it stands as a whole
 * identifier; the rest of the sentence ("the parent page (its id from ...)") is kept, and "search" written as a word
 * of its own still counts.
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

/** The fields of a tool, with their weights. */
const BOOST = { name: 4, title: 2, aliases: 1.5, description: 1, parameters: 0.7 } as const;
type Field = keyof typeof BOOST;
const FIELDS = Object.keys(BOOST) as Field[];

/** What a synonym's match counts for against a match of the user's own word. */
const SYNONYM_WEIGHT = 0.75;

/** A query word's readings: the word itself, then its synonyms. */
function queryWords(query: string): string[][][] {
  const words = new Map<string, string[][]>();
  for (const token of tokenize(query)) {
    const word = normalize(token);
    if (word === null || words.has(word)) continue;
    const synonyms = (SYNONYMS[word] ?? []).map((reading) => reading.split(' ').map((w) => normalize(w) ?? w));
    words.set(word, [[word], ...synonyms]);
  }
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

function toDocument(tool: ToolDefinition, toolNames: RegExp): ToolDocument {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
  return {
    id: tool.name,
    name: tool.name,
    aliases: tool.aliases.join(' '),
    title: tool.title,
    description: tool.description.replace(toolNames, ' '),
    // Version selectors (`schema_version`, ...) are on most tools and say nothing about what one does.
    parameters: Object.keys(properties).filter((name) => !tool.versionParameters.includes(name)).join(' '),
  };
}

export class ToolSearch {
  readonly #index: MiniSearch<ToolDocument>;

  constructor(tools: readonly ToolDefinition[]) {
    this.#index = new MiniSearch<ToolDocument>({
      fields: FIELDS,
      tokenize,
      processTerm: normalize,
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
  }

  /** Tools best matching `query`, best first; an empty query (or one of stop words only) finds nothing. */
  search(query: string, options: ToolSearchOptions = {}): ToolSearchHit[] {
    const among = options.among;
    const totals = new Map<string, { score: number; words: number }>();
    for (const readings of queryWords(query)) {
      // A word counts once in each field of a tool, by the best of its readings there: `sheets_update_values` says
      // "update" in its name and "write" in its title, and "write" (read as itself or as update) counts in both.
      const best = new Map<string, Map<Field, number>>();
      readings.forEach((reading, i) => {
        const weight = i === 0 ? 1 : SYNONYM_WEIGHT;
        const sum = new Map<string, Map<Field, number>>();
        for (const term of reading) {
          for (const [name, fields] of this.#termScores(term)) {
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

  /** One term's BM25 score per tool and field. */
  #termScores(term: string): Map<string, Map<Field, number>> {
    const scores = new Map<string, Map<Field, number>>();
    for (const field of FIELDS) {
      for (const hit of this.#index.search(term, { fields: [field], boost: { [field]: BOOST[field] } })) {
        const name = hit.id as string;
        const fields = scores.get(name) ?? new Map<Field, number>();
        scores.set(name, fields.set(field, (fields.get(field) ?? 0) + hit.score));
      }
    }
    return scores;
  }
}
