import type { Project } from 'ts-morph';
import type { JsonSchema } from '../../runtime/types.js';
import type { Model, ParamModel, ToolModel } from '../model/types.js';
import { presenceBranches, type Presence, type PresenceRule } from './presence-union.js';
import { objectToTs, schemaToTs } from './schema-to-ts.js';
import { docText, propKey } from './ts-text.js';
import { FileBuilder } from './file-builder.js';
import type { EmittedFile } from './emitted-file.js';
import { OPEN, sharedTypes } from './shared-types.js';

/** The rules that depend on presence alone, and so become unions; the others depend on values (validator checks). */
const PRESENCE_KINDS: ReadonlySet<string> = new Set<PresenceRule['kind']>(['exactly_one_of', 'at_most_one_of', 'at_least_one_of', 'required_if', 'forbidden_if']);

/**
 * `generated/types.gen.ts`: one input type per tool (presence rules as unions, host-computed parameters left out),
 * one output type per tool, the `ToolName` union and the `ToolInputs` / `ToolOutputs` maps.
 */
export function emitTypes(model: Model, project: Project): EmittedFile {
  const sf = new FileBuilder(project, 'types.gen.ts');
  const shared = sharedTypes(model);
  // One type per shared schema (`CalendarEvent`), before the tools' output types that name it.
  for (const { shared: s, type } of shared.types) {
    sf.addTypeAlias({ name: s.typeName, isExported: true, docs: [`Shared schema \`${s.name}\` of the ${s.connector} connector${typeof s.schema.description === 'string' ? `: ${docText(s.schema.description).replace(/\s*\n\s*/g, ' ')}` : '.'}`], type });
  }
  for (const tool of model.tools) {
    const visible = tool.params.filter((p) => !p.hostComputed);
    const rules = tool.rules.filter((r): r is PresenceRule & typeof r => PRESENCE_KINDS.has(r.kind));
    const branches = presenceBranches(rules, new Set(visible.filter((p) => p.required).map((p) => p.name)), visible.map((p) => p.name));
    const docs = [`Input of \`${tool.name}\`${tool.aliases.length ? ` (aliases: ${tool.aliases.map((a) => `\`${a}\``).join(', ')})` : ''}.`];
    if (!branches) {
      sf.addInterface({ name: `${tool.typeName}Input`, isExported: true, docs, properties: visible.map((p) => ({ name: propKey(p.name), hasQuestionToken: !p.required, type: paramType(p, tool), docs: paramDocs(p) })) });
    } else {
      const union = branches.map((b) => `{\n${visible.map((p) => `  ${member(p, tool, b.get(p.name))}`).join('\n')}\n}`).join(' | ');
      sf.addTypeAlias({ name: `${tool.typeName}Input`, isExported: true, docs: [`${docs[0]} A union: ${rules.map((r) => r.message).join(' ')}`], type: union });
    }
    sf.addTypeAlias({
      name: `${tool.typeName}Output`,
      isExported: true,
      docs: [`Result of \`${tool.name}\`${tool.output ? ': the notable fields; the upstream may return more' : ' (the upstream response body)'}.`],
      type: tool.output ? schemaToTs(tool.output, shared.options.get(tool.connector) ?? OPEN) : 'unknown',
    });
  }
  sf.addTypeAlias({ name: 'ToolName', isExported: true, docs: ['Every tool name (aliases resolve to these).'], type: model.tools.length ? model.tools.map((t) => JSON.stringify(t.name)).join(' | ') : 'never' });
  sf.addInterface({ name: 'ToolInputs', isExported: true, docs: ['Tool name -> input type.'], properties: model.tools.map((t) => ({ name: t.name, type: `${t.typeName}Input` })) });
  sf.addInterface({ name: 'ToolOutputs', isExported: true, docs: ['Tool name -> output type.'], properties: model.tools.map((t) => ({ name: t.name, type: `${t.typeName}Output` })) });
  return { path: 'types.gen.ts', content: sf.text() };
}

function member(p: ParamModel, tool: ToolModel, presence: Presence | undefined): string {
  const doc = paramDocs(p).map((d) => `/** ${d} */\n  `).join('');
  if (presence === 'absent') return `${doc}${propKey(p.name)}?: never;`;
  const optional = presence === 'present' ? false : presence === 'optional' ? true : !p.required;
  return `${doc}${propKey(p.name)}${optional ? '?' : ''}: ${paramType(p, tool)};`;
}

function paramDocs(p: ParamModel): string[] {
  const d = typeof p.schema.description === 'string' ? docText(p.schema.description) : '';
  const ex = Array.isArray(p.schema.examples) && p.schema.examples.length ? ` Example: \`${JSON.stringify(p.schema.examples[0])}\`.` : '';
  const fmt = typeof p.schema.format === 'string' ? ` Format: ${p.schema.format}.` : '';
  const text = `${d}${fmt}${ex}`.trim();
  return text ? [text.replace(/\s*\n\s*/g, ' ')] : [];
}

/** The parameter's type; an array whose items carry an `items_exactly_one_of` rule gets a union item type. */
function paramType(p: ParamModel, tool: ToolModel): string {
  const rule = tool.rules.find((r) => r.kind === 'items_exactly_one_of' && r.parameter === p.name);
  const items = p.schema.items as JsonSchema | undefined;
  if (!rule || rule.kind !== 'items_exactly_one_of' || !items?.properties) return schemaToTs(p.schema, OPEN);
  const props = items.properties as Record<string, JsonSchema>;
  const required = new Set((items.required ?? []) as string[]);
  const branches = presenceBranches([{ kind: 'exactly_one_of', params: rule.of }], required, Object.keys(props));
  if (!branches) return schemaToTs(p.schema, OPEN);
  const variants = branches.map((b) =>
    objectToTs(items, OPEN, Object.entries(props).map(([k, v]) => {
      const pr = b.get(k);
      if (pr === 'absent') return `${propKey(k)}?: never`;
      const optional = pr === 'present' ? false : pr === 'optional' ? true : !required.has(k);
      return `${propKey(k)}${optional ? '?' : ''}: ${schemaToTs(v, OPEN)}`;
    })),
  );
  return `Array<${variants.join(' | ')}>`;
}
