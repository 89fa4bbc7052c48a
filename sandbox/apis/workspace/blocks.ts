import { randomUUID } from 'node:crypto';
import { isObject, validation } from './errors.js';
import { richText } from './rich-text.js';
import { notionTime } from './state.js';

const TEXT_BLOCKS = new Set(['paragraph', 'heading_1', 'heading_2', 'heading_3', 'bulleted_list_item', 'numbered_list_item', 'to_do', 'toggle', 'quote', 'callout', 'code']);

/**
 * Nested `children` a request may carry below the blocks it sends: two levels (a block's children and theirs);
 * Notion refuses a third as "...children should be not present".
 * @see https://developers.notion.com/reference/patch-block-children
 */
const MAX_NESTING = 2;

/**
 * Validates child blocks (at most 100 in each array, nested at most {@link MAX_NESTING} levels, rich text as
 * Notion checks it at every level) and returns them in response form.
 */
export function buildBlocks(input: unknown, path: string, now: number, createdBy: unknown, depth = 0): unknown[] {
  if (!Array.isArray(input)) throw validation(`${path} should be an array.`);
  if (input.length > 100) throw validation(`${path}.length should be ≤ \`100\`, instead was \`${input.length}\`.`);
  const t = notionTime(now);
  return input.map((b, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(b)) throw validation(`${at} should be an object.`);
    const type = typeof b.type === 'string' ? b.type : Object.keys(b).find((k) => k !== 'object');
    if (!type || !isObject(b[type])) throw validation(`${at} should define a block type, instead was \`${JSON.stringify(b)}\`.`);
    const content = { ...(b[type] as Record<string, unknown>) };
    if (TEXT_BLOCKS.has(type)) {
      // Required, even empty (`[]`): a block written with the old `text` key is refused for the missing rich_text.
      if (content.rich_text === undefined) throw validation(`${at}.${type}.rich_text should be defined, instead was \`undefined\`.`);
      content.rich_text = richText(content.rich_text, `${at}.${type}.rich_text`);
    }
    if (type === 'to_do') content.checked = content.checked === true;
    if (content.children !== undefined) {
      if (depth >= MAX_NESTING) throw validation(`${at}.${type}.children should be not present, instead was \`${JSON.stringify(content.children).slice(0, 40)}...\`.`);
      content.children = buildBlocks(content.children, `${at}.${type}.children`, now, createdBy, depth + 1);
    }
    const hasChildren = Array.isArray(content.children) && content.children.length > 0;
    return {
      object: 'block',
      id: randomUUID(),
      created_time: t,
      last_edited_time: t,
      created_by: createdBy,
      last_edited_by: createdBy,
      has_children: hasChildren,
      archived: false,
      type,
      [type]: content,
    };
  });
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
