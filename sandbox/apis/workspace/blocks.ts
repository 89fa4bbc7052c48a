import { randomUUID } from 'node:crypto';
import { checkBoolean, isObject, unionValidation, validation } from './errors.js';
import { richText } from './rich-text.js';
import { notionTime } from './state.js';

/**
 * The block types a request may send, in the order Notion lists them when a block is none of them: its answer to an
 * unknown type (`note`, appended) is the union of these, one line each, "body failed validation. Fix one:\n
 * body.children[0].embed should be defined, instead was `undefined`.\n..." (34 lines, quoted verbatim with its request
 * id in a public test fixture of a Notion MCP client). The Notion-Version it was sent with is not recorded; the sandbox
 * uses the one list for every version. A type the API only answers (child_page, child_database, link_preview,
 * unsupported) is not among them.
 */
const BLOCK_TYPES: readonly string[] = [
  'embed', 'bookmark', 'image', 'video', 'pdf', 'file', 'audio', 'code', 'equation', 'divider', 'breadcrumb', 'tab', 'table_of_contents',
  'link_to_page', 'table_row', 'ai_block', 'meeting_notes', 'custom_block', 'table', 'column_list', 'column', 'heading_1', 'heading_2',
  'heading_3', 'heading_4', 'paragraph', 'bulleted_list_item', 'numbered_list_item', 'quote', 'to_do', 'toggle', 'template', 'callout',
  'synced_block',
];
const KNOWN_BLOCK_TYPES: ReadonlySet<string> = new Set(BLOCK_TYPES);

/** The block types whose content is rich text, checked as Notion checks it (rich_text required). */
const TEXT_BLOCKS: ReadonlySet<string> = new Set(['paragraph', 'heading_1', 'heading_2', 'heading_3', 'heading_4', 'bulleted_list_item', 'numbered_list_item', 'to_do', 'toggle', 'quote', 'callout', 'code']);

/**
 * Nested `children` a request may carry below the blocks it sends: two levels (a block's children and theirs);
 * Notion refuses a third as "...children should be not present".
 * @see https://developers.notion.com/reference/patch-block-children
 */
const MAX_NESTING = 2;

/**
 * The block types that hold no children: in the request types of Notion's official client (@notionhq/client 5,
 * `BlockObjectRequest`) these have no `children`, while every text block but code has one, as do table,
 * column_list, column, tab, template and synced_block. A type Notion's list has and the client does not (ai_block,
 * meeting_notes, custom_block) is not constrained.
 */
const LEAF_BLOCKS: ReadonlySet<string> = new Set([
  'embed', 'bookmark', 'image', 'video', 'pdf', 'file', 'audio', 'code', 'equation', 'divider', 'breadcrumb', 'table_of_contents', 'link_to_page',
  'table_row',
]);

const HEADINGS: ReadonlySet<string> = new Set(['heading_1', 'heading_2', 'heading_3', 'heading_4']);

/**
 * What blocks are added to, which decides what they may be: a page (`type: 'page'`) or a block of that type, with a
 * table's `table_width`. Notion's rules (developers.notion.com changelog, "Column List and Column Support" and the
 * simple-table release): a table holds table_row children only, each with `table_width` cells; a column_list holds
 * column children only, at least two when it is made, each column at least one block; a column is only ever in a
 * column_list, and holds no column (nor, here, a column_list); a table_row is only ever in a table.
 */
export interface Within {
  type: string;
  table_width?: number;
}

export const IN_PAGE: Within = { type: 'page' };

/**
 * What `PATCH /v1/blocks/{id}/children` may add to an existing block, or Notion's refusal when the block holds no
 * children: a leaf type, or a heading that is not a toggle heading (the block reference: a heading with
 * `is_toggleable: false` "is a static heading block and cannot support children"). Notion answers 400
 * validation_error; its words for this are not confirmed (not found quoted anywhere public): the sandbox's wording.
 */
export function withinBlock(block: BlockRecord): Within {
  const content = isObject(block[block.type]) ? (block[block.type] as Record<string, unknown>) : {};
  if (holdsNoChildren(block.type, content)) {
    throw validation(`Block ${block.id} of type ${block.type} does not support children${LEAF_BLOCKS.has(block.type) ? '' : ': its is_toggleable is false'}.`);
  }
  return withinType(block.type, content);
}

/**
 * Whether a block of this type and content holds no children: a leaf type, or a heading that is not a toggle heading
 * (a stored heading's is_toggleable is always a boolean: buildBlocks sets it).
 */
function holdsNoChildren(type: string, content: Record<string, unknown>): boolean {
  return LEAF_BLOCKS.has(type) || (HEADINGS.has(type) && content.is_toggleable !== true);
}

/** What a block of this type is to its children: its type, and a table's width. */
function withinType(type: string, content: Record<string, unknown>): Within {
  return type === 'table' ? { type, table_width: content.table_width as number } : { type };
}

/**
 * Where a block of this type may not go within `within`: placement refusals. Their words are not confirmed; a
 * missing key reads as Notion's schema refusals do ("... should be defined, instead was `undefined`.", its words for
 * a column_list's column without children), the others are the sandbox's wording.
 */
function placement(type: string, within: Within, at: string): string | undefined {
  if (within.type === 'table') return type === 'table_row' ? undefined : `${at}.table_row should be defined, instead was \`undefined\`.`;
  if (within.type === 'column_list') return type === 'column' ? undefined : `${at}.column should be defined, instead was \`undefined\`.`;
  if (type === 'table_row') return `${at} is a table_row, which can only be a child of a table.`;
  if (within.type === 'column' && (type === 'column' || type === 'column_list')) return `${at} is a ${type}, which a column cannot contain.`;
  if (type === 'column') return `${at} is a column, which can only be a child of a column_list.`;
  return undefined;
}

/** The children a table, column_list or column must be made with: required, at least this many (see {@link Within}). */
const REQUIRED_CHILDREN: Readonly<Record<string, number>> = { table: 1, column_list: 2, column: 1 };

/** Where a block is: a page's content, or another block's children. */
export type BlockParent = { type: 'page_id'; page_id: string } | { type: 'block_id'; block_id: string };

/**
 * A block as stored: the block object Notion answers, and its own children beside it (Notion answers those only
 * through `GET /v1/blocks/{id}/children`; a block itself says `has_children`).
 */
export interface BlockRecord {
  object: 'block';
  id: string;
  parent: BlockParent;
  type: string;
  archived: boolean;
  children: BlockRecord[];
  [key: string]: unknown;
}

/**
 * Validates child blocks (at most 100 in each array, nested at most {@link MAX_NESTING} levels, rich text as
 * Notion checks it at every level, children only where Notion takes them: see {@link Within}, {@link LEAF_BLOCKS})
 * and returns them as stored, under `parent`; a nested block's children are its own, under it. It throws before
 * anything is stored, so a refused request writes nothing.
 */
export function buildBlocks(input: unknown, path: string, now: number, createdBy: unknown, parent: BlockParent, within: Within = IN_PAGE, depth = 0): BlockRecord[] {
  if (input === undefined) throw validation(`${path} should be defined, instead was \`undefined\`.`);
  if (!Array.isArray(input)) throw validation(`${path} should be an array.`);
  if (input.length > 100) throw validation(`${path}.length should be ≤ \`100\`, instead was \`${input.length}\`.`);
  const t = notionTime(now);
  return input.map((b, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(b)) throw validation(`${at} should be an object.`);
    const type = typeof b.type === 'string' ? b.type : Object.keys(b).find((k) => k !== 'object');
    if (type !== undefined && !KNOWN_BLOCK_TYPES.has(type)) throw unionValidation(BLOCK_TYPES.map((t) => `${at}.${t} should be defined, instead was \`undefined\`.`));
    if (!type || !isObject(b[type])) throw validation(`${at} should define a block type, instead was \`${JSON.stringify(b)}\`.`);
    const where = placement(type, within, at);
    if (where) throw validation(where);
    const { children: nested, ...content } = b[type] as Record<string, unknown>;
    if (TEXT_BLOCKS.has(type)) {
      // Required, even empty (`[]`): a block written with the old `text` key is refused for the missing rich_text.
      if (content.rich_text === undefined) throw validation(`${at}.${type}.rich_text should be defined, instead was \`undefined\`.`);
      content.rich_text = richText(content.rich_text, `${at}.${type}.rich_text`);
    }
    if (type === 'to_do') {
      // Notion takes a JSON boolean or nothing (unchecked); text such as "true" is refused, as live:
      // `has_column_header should be a boolean, instead was "false"` (a table's flag, the same check).
      checkBoolean(content.checked, `${at}.to_do.checked`);
      content.checked = content.checked === true;
    }
    if (HEADINGS.has(type)) {
      checkBoolean(content.is_toggleable, `${at}.${type}.is_toggleable`);
      // Sent with children and no is_toggleable, a heading is made a toggle heading (Notion made one so before the
      // flag existed, makenotion/notion-sdk-js#295); sent with is_toggleable false, it is static and takes none.
      content.is_toggleable = content.is_toggleable ?? nested !== undefined;
    }
    if (type === 'table') {
      const width = content.table_width;
      if (width === undefined) throw validation(`${at}.table.table_width should be defined, instead was \`undefined\`.`);
      if (typeof width !== 'number' || !Number.isInteger(width) || width < 1) {
        throw validation(`${at}.table.table_width should be a positive integer, instead was \`${JSON.stringify(width)}\`.`);
      }
    }
    if (type === 'table_row') {
      const cells = content.cells;
      if (cells === undefined) throw validation(`${at}.table_row.cells should be defined, instead was \`undefined\`.`);
      if (!Array.isArray(cells)) throw validation(`${at}.table_row.cells should be an array, instead was \`${JSON.stringify(cells)}\`.`);
      // Not confirmed: Notion's words for a row whose cells are not the table's width (the sandbox's wording).
      if (within.type === 'table' && cells.length !== within.table_width) {
        throw validation(`${at}.table_row.cells.length should be \`${within.table_width}\` (the table's table_width), instead was \`${cells.length}\`.`);
      }
      content.cells = cells.map((cell, c) => richText(cell, `${at}.table_row.cells[${c}]`));
    }
    const id = randomUUID();
    let children: BlockRecord[] = [];
    // A leaf, or a static heading, with children reads as Notion's refusal of children below the nesting limit (its
    // schema has no children there); that Notion answers it so is not confirmed.
    if (nested !== undefined && (holdsNoChildren(type, content) || depth >= MAX_NESTING)) {
      throw validation(`${at}.${type}.children should be not present, instead was \`${JSON.stringify(nested).slice(0, 40)}...\`.`);
    }
    const required = REQUIRED_CHILDREN[type];
    if (required !== undefined) {
      if (nested === undefined) throw validation(`${at}.${type}.children should be defined, instead was \`undefined\`.`);
      if (Array.isArray(nested) && nested.length < required) {
        throw validation(`${at}.${type}.children.length should be ≥ \`${required}\`, instead was \`${nested.length}\`.`);
      }
    }
    if (nested !== undefined) {
      const inner = withinType(type, content);
      // A column does not count as a level: in Notion's request types a column_list's columns hold blocks that hold
      // children of their own (ColumnWithChildrenRequest: BlockObjectWithSingleLevelOfChildrenRequest).
      children = buildBlocks(nested, `${at}.${type}.children`, now, createdBy, { type: 'block_id', block_id: id }, inner, type === 'column' ? depth : depth + 1);
    }
    return {
      object: 'block',
      id,
      parent,
      created_time: t,
      last_edited_time: t,
      created_by: createdBy,
      last_edited_by: createdBy,
      archived: false,
      type,
      [type]: content,
      children,
    };
  });
}

/** A block as Notion answers it: `has_children` and `in_trash` (the same flag as `archived`), never the children. */
export function renderBlock(block: BlockRecord): Record<string, unknown> {
  const { children, ...rest } = block;
  return { ...rest, has_children: Array.isArray(children) && children.length > 0, in_trash: block.archived };
}

const ICON_TYPES = new Set(['emoji', 'external', 'custom_emoji', 'file_upload', 'file']);

/** Validates `icon` or `cover` (`{type:"emoji",emoji}` or `{type:"external",external:{url}}` ...). */
export function fileOrEmoji(input: unknown, field: 'icon' | 'cover'): unknown {
  if (input === null) return null;
  if (!isObject(input)) throw validation(`body.${field} should be an object or \`null\`.`);
  const type = typeof input.type === 'string' ? input.type : Object.keys(input)[0];
  if (!type || !ICON_TYPES.has(type) || (field === 'cover' && (type === 'emoji' || type === 'custom_emoji'))) {
    throw validation(`body.${field} should be ${field === 'icon' ? 'an emoji, external, custom_emoji or file_upload' : 'external or file_upload'} object.`);
  }
  const v = input[type];
  if (type === 'emoji') {
    if (typeof v !== 'string' || !v) throw validation('body.icon.emoji should be an emoji.');
    return { type, emoji: v };
  }
  if (type === 'external') {
    if (!isObject(v) || typeof v.url !== 'string' || !/^https?:\/\//.test(v.url)) throw validation(`body.${field}.external.url should be a valid URL.`);
    if (v.url.length > 2000) throw validation(`body.${field}.external.url.length should be ≤ \`2000\`.`);
    return { type, external: { url: v.url } };
  }
  if (!isObject(v) || typeof v.id !== 'string') throw validation(`body.${field}.${type}.id should be defined.`);
  return { type, [type]: { id: v.id } };
}
