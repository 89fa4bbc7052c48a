/**
 * Checks live responses against `generated/openapi.json`: the status must be documented for the operation, a header
 * the response documents as required must be sent, and a JSON body must validate against the documented schema (ajv,
 * JSON Schema 2020-12, refs resolved in the document).
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

export const OPENAPI: Json = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const DOC_ID = 'https://agent-connector.local/openapi.json';

const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as typeof addFormats.default)(ajv);
ajv.addSchema({ ...OPENAPI, $id: DOC_ID });

const escape = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1');

function resolveRef(node: Json): { node: Json; pointer: string | null } {
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    const pointer = node.$ref.slice(1);
    let current: any = OPENAPI;
    for (const part of pointer.split('/').slice(1)) current = current[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    return { node: current, pointer };
  }
  return { node, pointer: null };
}

/** Every documented (method, path template) pair. */
export function documentedOperations(): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  for (const [path, item] of Object.entries(OPENAPI.paths as Json)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) if (item[method]) out.push({ method: method.toUpperCase(), path });
  }
  return out;
}

export interface CheckedResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Returns a list of problems (empty when the response conforms). */
export function conformanceProblems(method: string, pathTemplate: string, res: CheckedResponse): string[] {
  const operation = OPENAPI.paths?.[pathTemplate]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${pathTemplate} is not in the document`];
  const responses = operation.responses as Json;
  // An exact status wins over its range (`4XX`), which wins over `default` (OpenAPI 3.1, Responses Object).
  const range = `${String(res.status)[0]}XX`;
  const key = String(res.status) in responses ? String(res.status) : range in responses ? range : 'default' in responses ? 'default' : null;
  if (!key) return [`${method} ${pathTemplate}: status ${res.status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
  const { node: response, pointer: responsePointer } = resolveRef(responses[key]);
  const problems: string[] = [];
  if (!res.headers.get('x-request-id')) problems.push('no x-request-id header');
  for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
    if (resolveRef(header).node.required === true && res.headers.get(name) === null) problems.push(`no ${name} header (documented as required)`);
  }
  const content = response.content as Json | undefined;
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (!content) return problems;
  if (!(contentType in content)) {
    problems.push(`content type ${contentType || '(none)'} is not documented (${Object.keys(content).join(', ')})`);
    return problems;
  }
  if (contentType !== 'application/json' || !content[contentType].schema) return problems;
  const base = responsePointer ?? `/paths/${escape(pathTemplate)}/${method.toLowerCase()}/responses/${key}`;
  const schemaRef = `${DOC_ID}#${base}/content/${escape(contentType)}/schema`;
  const validate = ajv.getSchema(schemaRef);
  if (!validate) return [...problems, `no schema at ${schemaRef}`];
  if (!validate(res.body)) {
    problems.push(...(validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message} (${e.schemaPath})`));
  }
  return problems;
}

/**
 * Problems of a tool's result (the `data` of its execute route's 200) against the document: what the route answers
 * when the call succeeds, refs to the shared schemas (CalendarEvent, ...) resolved.
 */
export function toolDataProblems(tool: string, data: unknown): string[] {
  const schemaRef = `${DOC_ID}#/paths/${escape(`/api/v1/tools/${tool}/execute`)}/post/responses/200/content/${escape('application/json')}/schema/properties/data`;
  const validate = ajv.getSchema(schemaRef);
  if (!validate) return [`no schema at ${schemaRef}`];
  return validate(data) ? [] : (validate.errors ?? []).map((e) => `data${e.instancePath} ${e.message} (${e.schemaPath})`);
}

/**
 * Problems of a webhook delivery's payload against the document's AccountEvent schema, a field of `data` the schema
 * does not name included (the schema leaves `data` open, so ajv alone would not say).
 */
export function accountEventProblems(payload: unknown): string[] {
  const validate = ajv.getSchema(`${DOC_ID}#/components/schemas/AccountEvent`)!;
  const problems = validate(payload) ? [] : (validate.errors ?? []).map((e) => `payload${e.instancePath} ${e.message}`);
  const documented = OPENAPI.components.schemas.AccountEvent.properties.data.properties as Json;
  const data = (payload as Json | null)?.data as Json | undefined;
  for (const key of Object.keys(data ?? {})) if (!(key in documented)) problems.push(`data.${key} is not in the document`);
  return problems;
}
