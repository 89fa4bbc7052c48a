import type { Project } from 'ts-morph';
import type { JsonSchema } from '../../runtime/types.js';
import type { Expr, Model, ParamModel, RequestModel, ToolModel } from '../model/types.js';
import { ExprCompiler, type Compiled } from './compile-expr.js';
import { FileBuilder } from './file-builder.js';
import type { EmittedFile } from './emitted-file.js';


/**
 * `generated/builders.gen.ts`: one compiled function per tool, input -> {@link UpstreamRequest}. Straight-line code
 * with direct helper calls; the path goes through `buildPath`, which encodes each value and refuses dot segments.
 */
export function emitBuilders(model: Model, project: Project): EmittedFile {
  const sf = new FileBuilder(project, 'builders.gen.ts');
  sf.addImportDeclaration({ moduleSpecifier: '../runtime/types.js', isTypeOnly: true, namedImports: ['UpstreamRequest'] });
  const bodies = model.tools.map((t) => builderBody(t, t.request, model));
  const variants = model.tools.map((t) => (t.requestVersions ?? []).map((v) => ({ from: v.from, body: builderBody(t, v.request, model) })));
  const all = [...bodies, ...variants.flat().map((v) => v.body)];
  if (all.some((b) => b.usesHelpers)) sf.addImportDeclaration({ moduleSpecifier: '../runtime/helpers/index.js', namespaceImport: 'helpers' });
  if (all.some((b) => b.usesPath)) sf.addImportDeclaration({ moduleSpecifier: '../runtime/http/path.js', namedImports: ['buildPath'] });
  if (model.tools.length) sf.addImportDeclaration({ moduleSpecifier: './types.gen.js', isTypeOnly: true, namedImports: model.tools.map((t) => `${t.typeName}Input`) });
  if (all.some((b) => b.usesQueryValue)) {
    sf.addFunction({
      name: 'queryValue',
      docs: ['A computed query value as the wire wants it: arrays repeat the parameter, objects are JSON, the rest strings.'],
      parameters: [{ name: 'value', type: 'unknown' }],
      returnType: 'string | string[]',
      statements: ["return Array.isArray(value) ? value.map(String) : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);"],
    });
  }
  model.tools.forEach((tool, i) => {
    const versioned = variants[i]!;
    const vh = tool.request.versionHeader;
    if (versioned.length === 0 || vh === undefined) {
      sf.addFunction({
        name: `build${tool.typeName}`,
        isExported: true,
        docs: [`\`${tool.name}\`: ${tool.request.method} ${tool.request.path}. Call only with an input that passed validation.`],
        parameters: [{ name: 'input', type: `${tool.typeName}Input` }],
        returnType: 'UpstreamRequest',
        statements: bodies[i]!.lines,
      });
      return;
    }
    // One function per request version, and a dispatch on the version the call sends (ISO dates compare as strings).
    const version = vh.parameter ? `input.${vh.parameter} ?? ${JSON.stringify(vh.default)}` : JSON.stringify(vh.default);
    const dispatch = [`const version: string = ${version};`];
    for (const v of [...versioned].reverse()) dispatch.push(`if (version >= ${JSON.stringify(v.from)}) return build${tool.typeName}From${v.from.replace(/\D/g, '')}(input);`);
    dispatch.push(`return build${tool.typeName}Before${versioned[0]!.from.replace(/\D/g, '')}(input);`);
    sf.addFunction({
      name: `build${tool.typeName}`,
      isExported: true,
      docs: [`\`${tool.name}\`: the request for the version the call sends. Call only with an input that passed validation.`],
      parameters: [{ name: 'input', type: `${tool.typeName}Input` }],
      returnType: 'UpstreamRequest',
      statements: dispatch,
    });
    sf.addFunction({
      name: `build${tool.typeName}Before${versioned[0]!.from.replace(/\D/g, '')}`,
      docs: [`\`${tool.name}\` before ${vh.name} ${versioned[0]!.from}: ${tool.request.method} ${tool.request.path}.`],
      parameters: [{ name: 'input', type: `${tool.typeName}Input` }],
      returnType: 'UpstreamRequest',
      statements: bodies[i]!.lines,
    });
    for (const [j, v] of versioned.entries()) {
      const req = tool.requestVersions![j]!.request;
      sf.addFunction({
        name: `build${tool.typeName}From${v.from.replace(/\D/g, '')}`,
        docs: [`\`${tool.name}\` from ${vh.name} ${v.from}: ${req.method} ${req.path}.`],
        parameters: [{ name: 'input', type: `${tool.typeName}Input` }],
        returnType: 'UpstreamRequest',
        statements: v.body.lines,
      });
    }
  });
  return { path: 'builders.gen.ts', content: sf.text() };
}

interface BuilderBody {
  lines: string[];
  usesHelpers: boolean;
  usesPath: boolean;
  usesQueryValue: boolean;
}

function builderBody(tool: ToolModel, req: RequestModel, model: Model): BuilderBody {
  const params = new Map<string, ParamModel>(tool.params.map((p) => [p.name, p]));
  const c = new ExprCompiler(params, model.helpers);
  let usesQueryValue = false;

  let path = JSON.stringify(req.path);
  if (req.pathParams.length) {
    const entries = req.pathParams.map((pp) => {
      const value = pp.param ? c.expr({ kind: 'param', name: pp.param }) : undefined;
      const fallback = pp.fallback ? c.expr(pp.fallback) : undefined;
      let code = value && fallback ? `${value.code} ?? ${fallback.code}` : (value ?? fallback)!.code;
      const type = pp.param ? params.get(pp.param)?.schema.type : undefined;
      if (type !== 'string' && type !== 'integer' && type !== 'number') code = `String(${code})`;
      return `${JSON.stringify(pp.name)}: ${code}`;
    });
    path = `buildPath(${JSON.stringify(req.path)}, { ${entries.join(', ')} })`;
  }

  c.lines.push('const query: Record<string, string | string[]> = {};');
  for (const [key, e] of req.query) {
    if (e.kind === 'literal' && e.value === null) continue;
    const v = c.ref(e);
    const { code, generic } = queryCode(v, e, params);
    usesQueryValue ||= generic;
    c.lines.push(v.maybeAbsent ? `if (${v.code} != null) query[${JSON.stringify(key)}] = ${code};` : `query[${JSON.stringify(key)}] = ${code};`);
  }

  c.lines.push('const headers: Record<string, string> = {};');
  if (req.versionHeader) {
    const vh = req.versionHeader;
    const override = vh.parameter ? `input.${vh.parameter} ?? ` : '';
    c.lines.push(`headers[${JSON.stringify(vh.name)}] = ${override}${JSON.stringify(vh.default)};`);
  }
  for (const [key, e] of req.headers) {
    if (e.kind === 'literal' && e.value === null) continue;
    const v = c.ref(e);
    const code = isStringValued(e, params) ? v.code : `String(${v.code})`;
    c.lines.push(v.maybeAbsent ? `if (${v.code} != null) headers[${JSON.stringify(key)}] = ${code};` : `headers[${JSON.stringify(key)}] = ${code};`);
  }

  const body: Compiled | undefined = req.body !== undefined ? c.expr(req.body) : undefined;
  const fields = [`method: ${JSON.stringify(req.method)}`, `path: ${path}`, 'query', 'headers'];
  if (body) fields.push(`body: ${body.code}`);
  c.lines.push(`return { ${fields.join(', ')} };`);
  const text = c.lines.join('\n') + path;
  return { lines: c.lines, usesHelpers: text.includes('helpers.'), usesPath: path.startsWith('buildPath('), usesQueryValue };
}

function paramSchema(e: Expr, params: ReadonlyMap<string, ParamModel>): JsonSchema | undefined {
  return e.kind === 'param' ? params.get(e.name)?.schema : undefined;
}

function isStringValued(e: Expr, params: ReadonlyMap<string, ParamModel>): boolean {
  if (e.kind === 'literal') return typeof e.value === 'string';
  const s = paramSchema(e, params);
  return s?.type === 'string';
}

/** How a query value is written: strings as they are, numbers and booleans as strings, arrays repeated. */
function queryCode(v: Compiled, e: Expr, params: ReadonlyMap<string, ParamModel>): { code: string; generic: boolean } {
  if (e.kind === 'literal') return { code: JSON.stringify(String(e.value)), generic: false };
  const s = paramSchema(e, params);
  if (s?.type === 'string') return { code: v.code, generic: false };
  if (s?.type === 'integer' || s?.type === 'number' || s?.type === 'boolean') return { code: `String(${v.code})`, generic: false };
  if (s?.type === 'array' && (s.items as JsonSchema | undefined)?.type === 'string') return { code: v.code, generic: false };
  if (s?.type === 'array') return { code: `${v.code}.map(String)`, generic: false };
  return { code: `queryValue(${v.code})`, generic: true };
}
