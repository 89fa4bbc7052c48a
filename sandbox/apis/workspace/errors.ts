import { notionError } from '../../dialects/notion.js';
import type { ApiResponse } from '../../types.js';

/** Thrown by handlers; the module renders it as a Notion error body. */
export class NotionApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** The answer to a request no route matched ({@link ApiResponse.unmodelled}). */
  unmodelled = false;

  toResponse(): ApiResponse {
    const response = notionError(this.status, this.message, { reason: this.code });
    return this.unmodelled ? { ...response, unmodelled: true } : response;
  }
}

/**
 * A 400 `validation_error`. A failure of the request body's schema reads as Notion writes it: "body failed
 * validation: body.children[0].paragraph.rich_text should be defined, instead was `undefined`." (the prefix before the
 * path; a union that matched no branch is {@link unionValidation}).
 */
export function validation(message: string): NotionApiError {
  return new NotionApiError(400, 'validation_error', message.startsWith('body.') ? `body failed validation: ${message}` : message);
}

/**
 * A 400 `validation_error` for a value that matched no branch of a union: "body failed validation. Fix one:", then
 * one line per branch saying why it failed, each on its own line, as Notion answers (a page's parent, live:
 * "body failed validation. Fix one:\nbody.parent.page_id should be defined, instead was `undefined`.\nbody.parent.database_id
 * should be a valid uuid, ...").
 */
export function unionValidation(branches: readonly string[]): NotionApiError {
  return new NotionApiError(400, 'validation_error', ['body failed validation. Fix one:', ...branches].join('\n'));
}

/**
 * Refuses a flag that is given and is no JSON boolean (text such as "true" among them) as Notion's schema does:
 * "`path` should be a boolean, instead was `"true"`.". Absent (undefined) passes.
 */
export function checkBoolean(value: unknown, path: string): asserts value is boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') throw validation(`${path} should be a boolean, instead was \`${JSON.stringify(value)}\`.`);
}

export function notFound(id: string, kind = 'block'): NotionApiError {
  return new NotionApiError(
    404,
    'object_not_found',
    `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
  );
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Notion accepts ids with or without hyphens; answers use the hyphenated form. */
export function normalizeId(raw: unknown, field: string): string {
  if (typeof raw !== 'string' || !UUID.test(raw)) throw validation(`${field} should be a valid uuid, instead was \`${JSON.stringify(raw)}\`.`);
  const h = raw.replace(/-/g, '').toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
