import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import type { JsonSchema, UpstreamErrorHint } from '../../runtime/types.js';
import type { SpecPath } from '../load/yaml-source.js';
import { schemaNodes } from '../model/schema-refs.js';
import type { Model, ParamModel, RuleModel, ToolModel } from '../model/types.js';
import type { EmittedFile } from './emitted-file.js';

const TEMPLATE = fileURLToPath(new URL('../templates/connector.md.hbs', import.meta.url));

/** `generated/docs/<connector>.md`: a Markdown reference per connector, rendered from the model. */
export function emitDocs(model: Model): EmittedFile[] {
  const render = Handlebars.compile(readFileSync(TEMPLATE, 'utf8'), { noEscape: true, strict: false });
  return model.connectors.map((connector) => {
    const tools = model.tools.filter((t) => t.connector === connector.name);
    const versionParameter = connector.api.versionHeader?.parameter;
    return {
      path: `docs/${connector.name}.md`,
      content: render({ connector, versionParameter, upstreamErrors: (model.connectorUpstreamErrors[connector.name] ?? []).map((hint) => prose(hintText(hint))), tools: tools.map(toolView) }),
    };
  });
}

function cell(text: string): string {
  return prose(text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim());
}

/**
 * Spec prose as Markdown shows it: a `<` that could open a tag (before a letter, `/`, `!` or `?`) outside a code span
 * is written `&lt;`, or a renderer would take `<id>` in `/spreadsheets/d/<id>/edit` for an HTML tag and drop it
 * (GitHub does). Inside backticks it stays as written.
 */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<(?=[A-Za-z/!?])/g, '&lt;')))
    .join('');
}

function toolView(t: ToolModel): Record<string, unknown> {
  return {
    name: t.name,
    version: t.version,
    olderVersions: t.versions.slice(1).join(', '),
    aliases: t.aliases,
    summary: cell(t.description.split(/(?<=\.)\s/)[0] ?? t.description),
    description: prose(t.description),
    notes: t.notes === undefined ? undefined : prose(t.notes),
    method: t.request.method,
    path: t.request.path,
    retry: t.retry,
    params: t.params.map((p) => paramView(p)),
    rules: t.rules.map((rule) => prose(ruleText(rule))),
    // The connector's hints are listed once, above the tools.
    upstreamErrors: t.ownUpstreamErrors.map((hint) => prose(hintText(hint))),
    output: outputRows(t.output),
    // `properties: {}` says the answer has no fields (an empty 204); a schema that lists none says nothing.
    outputEmpty: isEmptyObject(t.output.properties) && t.output.additionalProperties === undefined && t.output.oneOf === undefined && t.output.anyOf === undefined,
  };
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** How deep the reference lists output fields; deeper ones are in the MCP outputSchema and the typed result. */
const OUTPUT_DEPTH = 4;

/**
 * The output's fields as rows, one per field, named by their path (`items[].start.dateTime`; a map's values as
 * `<key>`), down to {@link OUTPUT_DEPTH} levels; a field named by several branches of a oneOf/anyOf is listed once,
 * with the types of all (`"page"` or `"database"`) and the first one's description.
 */
function outputRows(schema: JsonSchema): Array<Record<string, string>> {
  const rows = new Map<string, { types: string[]; description: string }>();
  for (const [field, at] of schemaNodes(schema, [])) {
    const name = fieldName(at);
    if (name === undefined || name.depth > OUTPUT_DEPTH) continue;
    const row = rows.get(name.text) ?? rows.set(name.text, { types: [], description: typeof field.description === 'string' ? field.description : '' }).get(name.text)!;
    for (const type of typeText(field).split(' or ')) if (!row.types.includes(type)) row.types.push(type);
  }
  return [...rows].map(([field, row]) => ({ field, type: cell(row.types.join(' or ')), description: cell(row.description) }));
}

/** A field's name from its schema path, and how many properties deep it is; undefined for a node that is no field (the root, an array's items, a map's values, a branch). */
function fieldName(at: SpecPath): { text: string; depth: number } | undefined {
  const parts: string[] = [];
  let depth = 0;
  let field = false;
  for (let i = 0; i < at.length; i++) {
    const key = at[i];
    field = key === 'properties';
    if (field) {
      parts.push(String(at[++i]));
      depth++;
    } else if (key === 'items') parts.push(`${parts.pop() ?? ''}[]`);
    else if (key === 'additionalProperties') parts.push('<key>');
    else i++; // anyOf/oneOf and the branch's index
  }
  return field ? { text: parts.join('.'), depth } : undefined;
}

function paramView(p: ParamModel): Record<string, string> {
  const s = p.schema;
  const bits: string[] = [];
  if (typeof s.description === 'string') bits.push(s.description);
  if (p.hostComputed) bits.push('Computed by the service; never supply it.');
  if (Array.isArray(s.examples) && s.examples.length) bits.push(`Example: \`${JSON.stringify(s.examples[0])}\`.`);
  return { name: p.name, type: cell(typeText(s)), required: p.required ? 'yes' : 'no', description: cell(bits.join(' ')) };
}

function typeText(s: JsonSchema): string {
  const t = Array.isArray(s.type) ? s.type.join(' or ') : typeof s.type === 'string' ? s.type : 'any';
  const items = s.items as JsonSchema | undefined;
  const itemType = Array.isArray(items?.type) ? items.type.join(' or ') : items?.type;
  // Without a type, a const or an enum is its values: `"page"`, `"database" or "data_source"`.
  if (t === 'any' && 'const' in s) return `\`${JSON.stringify(s.const)}\``;
  if (t === 'any' && Array.isArray(s.enum)) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' or ');
  const parts = [t === 'array' && itemType ? `array of ${String(itemType)}` : t];
  if (typeof s.format === 'string') parts.push(`(${s.format})`);
  if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.map((v) => `\`${String(v)}\``).join(', ')}`);
  const range = [s.minimum !== undefined ? `>= ${String(s.minimum)}` : '', s.maximum !== undefined ? `<= ${String(s.maximum)}` : ''].filter(Boolean);
  if (range.length) parts.push(range.join(', '));
  return parts.join(' ');
}

function ruleText(r: RuleModel): string {
  switch (r.kind) {
    case 'host_computed':
      return `\`${r.parameter}\` is computed by the service.`;
    case 'exactly_one_of':
    case 'at_most_one_of':
    case 'at_least_one_of':
      return `${r.kind.replace(/_/g, ' ')} ${r.params.map((p) => `\`${p}\``).join(', ')}: ${r.message}`;
    case 'required_if':
    case 'forbidden_if':
      return `\`${r.parameter}\` ${r.kind === 'required_if' ? 'is required' : 'is refused'} when \`${r.present}\` is given: ${r.message}`;
    case 'requires_value':
      return `\`${r.parameter}\` must be \`${String(r.value)}\`${r.or_absent ? ' (or absent)' : ''} when \`${r.when}\` ${r.equals === undefined ? 'is given' : `is \`${String(r.equals)}\``}: ${r.message}`;
    case 'check':
      return `\`${r.parameter}\` is checked before sending: ${r.message}`;
    case 'later_than':
      return `\`${r.parameter}\` must be later than \`${r.than}\` when both are given: ${r.message}`;
    case 'not_all_zero':
      return `${r.params.map((p) => `\`${p}\``).join(', ')} are not all 0 when given: ${r.message}`;
    case 'items_exactly_one_of':
      return `each item of \`${r.parameter}\` has exactly one of ${r.of.map((p) => `\`${p}\``).join(', ')}: ${r.message}`;
  }
}

/** `404` `object_not_found`, message containing "...": the hint. */
function hintText(h: UpstreamErrorHint): string {
  const code = h.code === undefined ? '' : ` \`${h.code}\``;
  const message = h.messageContains === undefined ? '' : `, message containing "${h.messageContains}"`;
  return `${h.status}${code}${message}: ${h.hint}`;
}
