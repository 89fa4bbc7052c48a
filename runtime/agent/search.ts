/**
 * Ranked tool search: "schedule a meeting with Ana tomorrow" -> `calendar_create_event`.
 *
 * MiniSearch (BM25 over several fields with per-field boosts, prefix and fuzzy matching) does the ranking; this file
 * only says what a tool's fields are and how words are normalized. Names weigh most (a tool's name is its summary),
 * then aliases and title, then the description and the parameter names. Words are folded to a light stem
 * (Harman's "S" stemmer: plurals only, so "contacts" meets "contact" without over-stemming "process" to "proc"), and a
 * query word is expanded with the few verbs and nouns users say for what the tools call otherwise (a "meeting" is an
 * "event", to "find" is to "search"). Words such as "Ana" or "tomorrow" match nothing and simply do not count.
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
  'a an the and or of to in on at by for with from into my me i you your our we it its this that these those is are be can please some any all'.split(' '),
);

/**
 * What users say -> what the tools say, keyed by stem. Only a query is expanded; the index holds the tools' own
 * words. Kept to the vocabulary of the five connectors.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  meeting: ['event'],
  appointment: ['event'],
  call: ['event'],
  schedule: ['create', 'event', 'calendar'],
  book: ['create', 'event'],
  reschedule: ['update', 'event'],
  move: ['update'],
  cancel: ['delete'],
  remove: ['delete'],
  add: ['create', 'insert', 'append'],
  make: ['create'],
  new: ['create'],
  upcoming: ['list', 'event'],
  // A question about what there is reads: "what meetings do I have tomorrow" lists events.
  what: ['list', 'get', 'read', 'search'],
  which: ['list', 'get', 'read', 'search'],
  agenda: ['list', 'event'],
  write: ['update', 'create'],
  edit: ['update'],
  change: ['update'],
  modify: ['update'],
  find: ['search'],
  lookup: ['search'],
  look: ['search'],
  show: ['list', 'get', 'read'],
  // The Sheets and Docs tools say "read" where the others say "get".
  get: ['read'],
  fetch: ['get', 'read'],
  open: ['read', 'get'],
  person: ['contact'],
  people: ['contact'],
  customer: ['contact', 'company'],
  lead: ['contact'],
  organization: ['company'],
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
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && !word.endsWith('aes') && !word.endsWith('ees') && !word.endsWith('oes')) return word.slice(0, -1);
  if (word.endsWith('s') && !word.endsWith('us') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Splits on anything but letters and digits (so `calendar_create_event` is three words); "e-mail" is one. */
function tokenize(text: string): string[] {
  return text.replace(/\be-mail/gi, 'email').split(/[^\p{L}\p{N}]+/u);
}

function indexTerm(term: string): string | null {
  const word = term.toLowerCase();
  return word === '' || STOP_WORDS.has(word) ? null : stem(word);
}

function queryTerm(term: string): string[] | null {
  const word = indexTerm(term);
  if (word === null) return null;
  return [word, ...(SYNONYMS[word] ?? [])];
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
      fields: ['name', 'aliases', 'title', 'description', 'parameters'],
      tokenize,
      processTerm: indexTerm,
      searchOptions: {
        processTerm: queryTerm,
        boost: { name: 4, title: 2, aliases: 1.5, description: 1, parameters: 0.7 },
        // "contact" finds "contacts_search" by prefix; a typo of a longer word still matches.
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    if (tools.length === 0) return;
    const toolNames = namesPattern(tools.flatMap((tool) => [tool.name, ...tool.aliases]));
    this.#index.addAll(tools.map((tool) => toDocument(tool, toolNames)));
  }

  /** Tools best matching `query`, best first; an empty query (or one of stop words only) finds nothing. */
  search(query: string, options: ToolSearchOptions = {}): ToolSearchHit[] {
    const among = options.among;
    const hits = this.#index.search(query, among === undefined ? {} : { filter: (result) => among.has(result.id as string) });
    return hits.slice(0, options.limit ?? 10).map((hit) => ({ name: hit.id as string, score: hit.score }));
  }
}
