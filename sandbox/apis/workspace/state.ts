import { randomUUID } from 'node:crypto';
import { buildBlocks, type BlockRecord } from './blocks.js';
import { notionUserId } from '../../core/ids.js';
import { PAGE_SCHEMA, buildSchema, type Schema } from './properties.js';
import { richText, textOf, type RichText } from './rich-text.js';

/**
 * A page's parent as stored. A row's parent is its data source (and that source's database): answered as
 * `{type: "database_id", database_id}` up to 2022-06-28 and `{type: "data_source_id", data_source_id, database_id}`
 * from 2025-09-03.
 */
export type Parent =
  | { type: 'page_id'; page_id: string }
  | { type: 'data_source_id'; data_source_id: string; database_id: string }
  | { type: 'workspace'; workspace: true };

/** The first Notion-Version whose databases are containers of data sources. */
export const DATA_SOURCES_VERSION = '2025-09-03';

/** Whether `version` speaks of data sources (databases hold them; schemas, queries and rows live on them). */
export function hasDataSources(version: string | undefined): boolean {
  return version !== undefined && version >= DATA_SOURCES_VERSION;
}

/** What Notion stamps on a page, database or data source: when it was made and last edited, and by whom. */
export interface Stamps {
  created_time: string;
  last_edited_time: string;
  created_by: { object: 'user'; id: string };
  last_edited_by: { object: 'user'; id: string };
}

export interface PageRecord extends Stamps {
  object: 'page';
  id: string;
  icon: unknown;
  cover: unknown;
  parent: Parent;
  archived: boolean;
  /** Stored property values by property id. */
  values: Record<string, unknown>;
  /** Its content: the top-level blocks, in order, each holding its own children. */
  children: BlockRecord[];
  /** Whether the user shared it with the integration (unshared objects answer 404). */
  shared: boolean;
  /** Monotonic order, so sorts on equal (minute-rounded) timestamps stay stable. */
  seq: number;
}

export interface DatabaseRecord extends Stamps {
  object: 'database';
  id: string;
  title: RichText[];
  description: RichText[];
  icon: unknown;
  cover: unknown;
  parent: { type: 'page_id'; page_id: string } | { type: 'workspace'; workspace: true };
  archived: boolean;
  is_inline: boolean;
  /** Its data sources' ids, first created first; a database made by the API starts with one. */
  dataSources: string[];
  shared: boolean;
  seq: number;
}

/** A data source (from 2025-09-03): a table of a database, with its own schema and rows. */
export interface DataSourceRecord extends Stamps {
  object: 'data_source';
  id: string;
  database_id: string;
  title: RichText[];
  description: RichText[];
  properties: Schema;
  archived: boolean;
  seq: number;
}

export interface CommentRecord {
  object: 'comment';
  id: string;
  parent: { type: 'page_id'; page_id: string } | { type: 'block_id'; block_id: string };
  discussion_id: string;
  created_time: string;
  last_edited_time: string;
  created_by: { object: 'user'; id: string };
  rich_text: RichText[];
}

/** Notion reports created/edited times rounded down to the minute. */
export function notionTime(ms: number): string {
  return new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
}

export function botId(user: string): string {
  return notionUserId(`bot|${user}`);
}

/** One sandbox user's workspace. */
export class Workspace {
  readonly pages = new Map<string, PageRecord>();
  readonly databases = new Map<string, DatabaseRecord>();
  readonly dataSources = new Map<string, DataSourceRecord>();
  readonly comments: CommentRecord[] = [];
  private seq = 0;

  constructor(
    readonly user: string,
    readonly bot: { object: 'user'; id: string },
  ) {}

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  /** The stamps of an object the integration (this workspace's bot) makes at `now`. */
  private stamps(now: number): Stamps {
    const t = notionTime(now);
    return { created_time: t, last_edited_time: t, created_by: this.bot, last_edited_by: this.bot };
  }

  addPage(p: Omit<PageRecord, 'object' | 'id' | 'seq' | keyof Stamps>, now: number): PageRecord {
    const page: PageRecord = { object: 'page', id: randomUUID(), ...this.stamps(now), seq: this.nextSeq(), ...p };
    this.pages.set(page.id, page);
    return page;
  }

  /** A database with its first data source, which holds `properties` and takes the database's title. */
  addDatabase(d: Omit<DatabaseRecord, 'object' | 'id' | 'seq' | keyof Stamps | 'dataSources'>, properties: Schema, now: number): DatabaseRecord {
    const db: DatabaseRecord = { object: 'database', id: randomUUID(), ...this.stamps(now), seq: this.nextSeq(), dataSources: [], ...d };
    this.databases.set(db.id, db);
    this.addDataSource(db, db.title, properties, now);
    return db;
  }

  addDataSource(db: DatabaseRecord, title: RichText[], properties: Schema, now: number): DataSourceRecord {
    const ds: DataSourceRecord = {
      object: 'data_source', id: randomUUID(), database_id: db.id, ...this.stamps(now),
      title, description: [], properties, archived: false, seq: this.nextSeq(),
    };
    this.dataSources.set(ds.id, ds);
    db.dataSources.push(ds.id);
    return ds;
  }

  sourcesOf(db: DatabaseRecord): DataSourceRecord[] {
    return db.dataSources.map((id) => this.dataSources.get(id)).filter((d): d is DataSourceRecord => d !== undefined);
  }

  /** A data source whose database the integration can see, or undefined. */
  visibleDataSource(id: string): DataSourceRecord | undefined {
    const ds = this.dataSources.get(id);
    return ds && !ds.archived && this.visibleDatabase(ds.database_id) ? ds : undefined;
  }

  /** A page or database the integration can see, or undefined (unknown and unshared look the same: 404). */
  visiblePage(id: string): PageRecord | undefined {
    const p = this.sharedPage(id);
    return p && !p.archived ? p : undefined;
  }

  /**
   * A page shared with the integration, in the trash or not: Notion retrieves a trashed page (`in_trash: true`) and
   * takes an update that restores it; only other edits of it are refused.
   */
  sharedPage(id: string): PageRecord | undefined {
    const p = this.pages.get(id);
    return p && p.shared ? p : undefined;
  }

  visibleDatabase(id: string): DatabaseRecord | undefined {
    const d = this.databases.get(id);
    return d && d.shared && !d.archived ? d : undefined;
  }

  schemaOf(page: PageRecord): Schema {
    if (page.parent.type === 'data_source_id') return this.dataSources.get(page.parent.data_source_id)?.properties ?? PAGE_SCHEMA;
    return PAGE_SCHEMA;
  }
}

/** The seed "Tasks" columns' ids, fixed and shaped like Notion's (listed percent-encoded), so tests can name them. */
export const SEED_PROPERTY_IDS: Readonly<Record<string, string>> = {
  Status: '%5BJCR',
  Priority: 'AJP%7D',
  Due: 'M%3BBw',
  Notes: 'bHwQ',
  Done: 'Z%3ClH',
};

/**
 * Sample data for a new user: a shared "Getting started" page with a "Tasks" database under it (three rows), and a
 * private page the integration was not given (it answers 404, like an unshared page).
 */
export function seedWorkspace(user: string, now: number): Workspace {
  const ws = new Workspace(user, { object: 'user', id: botId(user) });
  const home = ws.addPage(
    {
      icon: { type: 'emoji', emoji: '👋' },
      cover: null,
      parent: { type: 'workspace', workspace: true },
      archived: false,
      values: { title: textOf('Getting started') },
      children: [],
      shared: true,
    },
    now,
  );
  home.children = buildBlocks([{ type: 'paragraph', paragraph: { rich_text: textOf('Welcome to the sandbox workspace.') } }], 'seed', now, ws.bot, { type: 'page_id', page_id: home.id });
  const tasks = ws.addDatabase(
    {
      title: textOf('Tasks'),
      description: [],
      icon: null,
      cover: null,
      parent: { type: 'page_id', page_id: home.id },
      archived: false,
      is_inline: false,
      shared: true,
    },
    buildSchema({
        Name: { title: {} },
        Status: { select: { options: [{ name: 'Todo', color: 'red' }, { name: 'Doing', color: 'yellow' }, { name: 'Done', color: 'green' }] } },
        Priority: { number: { format: 'number' } },
        Due: { date: {} },
        Notes: { rich_text: {} },
        Done: { checkbox: {} },
      }, SEED_PROPERTY_IDS),
    now,
  );
  const source = ws.sourcesOf(tasks)[0]!;
  const p = source.properties;
  const row = (name: string, status: string, priority: number, due: string, done: boolean) =>
    ws.addPage(
      {
        icon: null,
        cover: null,
        parent: { type: 'data_source_id', data_source_id: source.id, database_id: tasks.id },
        archived: false,
        values: {
          title: richText([{ text: { content: name } }], 'seed'),
          [p.Status!.id]: (p.Status!.select as { options: unknown[] }).options.find((o) => (o as { name: string }).name === status),
          [p.Priority!.id]: priority,
          [p.Due!.id]: { start: due, end: null, time_zone: null },
          [p.Done!.id]: done,
        },
        children: [],
        shared: true,
      },
      now,
    );
  row('Write the launch plan', 'Doing', 1, '2025-01-10', false);
  row('Book the venue', 'Todo', 2, '2025-01-20', false);
  row('Send invitations', 'Done', 3, '2025-01-05', true);
  ws.addPage(
    { icon: null, cover: null, parent: { type: 'workspace', workspace: true }, archived: false, values: { title: textOf('Private notes') }, children: [], shared: false },
    now,
  );
  return ws;
}
