import { isObject, validation } from './errors.js';

export interface RichText {
  type: 'text' | 'mention' | 'equation';
  [key: string]: unknown;
  plain_text: string;
  href: string | null;
}

const DEFAULT_ANNOTATIONS = { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' };

/**
 * Validates a rich-text array as Notion does (at most 100 items, `text.content` at most 2000 characters, a link an
 * absolute URL of at most 2000, an equation at most 1000 characters) and returns
 * it in response form (`annotations`, `plain_text`, `href` filled in).
 * @see https://developers.notion.com/reference/rich-text
 */
export function richText(input: unknown, path: string): RichText[] {
  if (!Array.isArray(input)) throw validation(`${path} should be an array, instead was \`${JSON.stringify(input)}\`.`);
  if (input.length > 100) throw validation(`${path}.length should be ≤ \`100\`, instead was \`${input.length}\`.`);
  return input.map((item, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(item)) throw validation(`${at} should be an object.`);
    const annotations = { ...DEFAULT_ANNOTATIONS, ...(isObject(item.annotations) ? item.annotations : {}) };
    const type = item.type ?? (item.text !== undefined ? 'text' : item.mention !== undefined ? 'mention' : item.equation !== undefined ? 'equation' : undefined);
    if (type === 'text') {
      // A link belongs inside `text`; Notion refuses one beside it instead of ignoring it.
      if (item.link !== undefined) throw validation(`${at}.link should be not present, instead was \`${JSON.stringify(item.link)}\`.`);
      const text = item.text;
      if (!isObject(text) || typeof text.content !== 'string') throw validation(`${at}.text.content should be defined, instead was \`undefined\`.`);
      if (text.content.length > 2000) throw validation(`${at}.text.content.length should be ≤ \`2000\`, instead was \`${text.content.length}\`.`);
      const link = textLink(text.link, `${at}.text.link`);
      return { type: 'text', text: { content: text.content, link }, annotations, plain_text: text.content, href: link?.url ?? null };
    }
    if (type === 'equation') {
      const eq = item.equation;
      if (!isObject(eq) || typeof eq.expression !== 'string') throw validation(`${at}.equation.expression should be defined.`);
      if (eq.expression.length > 1000) throw validation(`${at}.equation.expression.length should be ≤ \`1000\`, instead was \`${eq.expression.length}\`.`);
      return { type: 'equation', equation: { expression: eq.expression }, annotations, plain_text: eq.expression, href: null };
    }
    if (type === 'mention') {
      if (!isObject(item.mention)) throw validation(`${at}.mention should be an object.`);
      return { type: 'mention', mention: item.mention, annotations, plain_text: String(item.plain_text ?? '@mention'), href: null };
    }
    throw validation(`${at} should have one of text, mention or equation.`);
  });
}

/**
 * A text item's `link`: absent or null for none, else `{url}` with an absolute URL of at most 2000 characters. Notion
 * refuses any other link ("Invalid URL for link.", its wording for a URL it cannot use, e.g. `url` or `/page`)
 * rather than dropping it.
 */
function textLink(input: unknown, path: string): { url: string } | null {
  if (input === undefined || input === null) return null;
  if (!isObject(input) || typeof input.url !== 'string') throw validation(`${path}.url should be defined, instead was \`undefined\`.`);
  if (input.url.length > 2000) throw validation(`${path}.url.length should be ≤ \`2000\`, instead was \`${input.url.length}\`.`);
  if (!URL.canParse(input.url)) throw validation('Invalid URL for link.');
  return { url: input.url };
}

export function plainText(rt: RichText[]): string {
  return rt.map((r) => r.plain_text).join('');
}

/** A rich-text array for sample data. */
export function textOf(content: string): RichText[] {
  return richText([{ type: 'text', text: { content } }], 'text');
}
