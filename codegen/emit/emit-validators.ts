import Ajv2020Module from 'ajv/dist/2020.js';
import { _ } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { Project } from 'ts-morph';
import { formats } from '../../runtime/validation/formats.js';
import type { Expr, Model, RuleModel, ToolModel } from '../model/types.js';
import { FileBuilder } from './file-builder.js';
import type { EmittedFile } from './emitted-file.js';
import { access, camelCase, GENERATED_HEADER } from './ts-text.js';

// ajv ships CommonJS; under NodeNext the values sit on the default export.
const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
const standaloneCode = standaloneModule as unknown as typeof standaloneModule.default;

/**
 * `generated/ajv.gen.ts`: ajv's standalone validation code for every tool input (ESM, formats read from
 * `runtime/validation/formats.ts`, so nothing is `require`d), and `generated/validators.gen.ts`: per tool, a typed
 * `validate` that runs it, then the tool's rules, and reports every violation with a message naming the parameter.
 */
export function emitValidators(model: Model, project: Project): EmittedFile[] {
  return [emitAjv(model), emitWrappers(model, project)];
}

function emitAjv(model: Model): EmittedFile {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
    messages: false,
    // Length in UTF-16 units, which avoids a `require` of ajv's ucs2length in the generated code.
    unicode: false,
    logger: false,
    code: { source: true, esm: true, lines: true, optimize: true, formats: _`formats` },
  } as ConstructorParameters<typeof Ajv2020>[0]);
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check);
  const exports: Record<string, string> = {};
  for (const tool of model.tools) {
    ajv.addSchema(tool.inputSchema, tool.name);
    exports[tool.name] = tool.name;
  }
  const code = model.tools.length ? standaloneCode(ajv, exports) : '';
  if (/\brequire\(/.test(code)) throw new Error('ajv standalone code contains require(); a schema uses a keyword that needs an ajv runtime module');
  const content = [
    GENERATED_HEADER,
    '// ajv standalone code (JavaScript), wrapped with types in validators.gen.ts.',
    '// @ts-nocheck',
    "import { formats } from '../runtime/validation/formats.js';",
    code.replace(/^"use strict";\n?/, ''),
    '',
  ].join('\n');
  return { path: 'ajv.gen.ts', content };
}

function emitWrappers(model: Model, project: Project): EmittedFile {
  const sf = new FileBuilder(project, 'validators.gen.ts');
  sf.addImportDeclaration({ moduleSpecifier: '../runtime/types.js', isTypeOnly: true, namedImports: ['ValidationResult', 'Violation'] });
  sf.addImportDeclaration({ moduleSpecifier: '../runtime/validation/violations.js', namedImports: ['toViolations'] });
  sf.addImportDeclaration({ moduleSpecifier: '../runtime/validation/violations.js', isTypeOnly: true, namedImports: ['AjvErrorLike'] });
  if (model.tools.some((t) => t.rules.some((r) => r.kind === 'check'))) {
    sf.addImportDeclaration({ moduleSpecifier: '../runtime/validation/checks.js', namespaceImport: 'checks' });
  }
  if (model.tools.some((t) => t.rules.some((r) => r.kind === 'later_than'))) {
    sf.addImportDeclaration({ moduleSpecifier: '../runtime/validation/formats.js', namedImports: ['notLater'] });
  }
  if (model.tools.length) {
    sf.addImportDeclaration({ moduleSpecifier: './ajv.gen.js', namespaceImport: 'ajv' });
    sf.addImportDeclaration({ moduleSpecifier: './schemas.gen.js', namedImports: model.tools.map((t) => `${camelCase(t.name)}InputSchema`) });
    sf.addImportDeclaration({ moduleSpecifier: './types.gen.js', isTypeOnly: true, namedImports: model.tools.map((t) => `${t.typeName}Input`) });
  }
  sf.addTypeAlias({ name: 'AjvValidate', type: '((data: unknown) => boolean) & { errors?: AjvErrorLike[] | null }' });
  for (const tool of model.tools) {
    const check = `ajv_${tool.name}`;
    sf.addVariableStatement({ declarations: [{ name: check, initializer: `ajv.${tool.name} as unknown as AjvValidate` }] });
    const ruleCode = tool.rules.map(ruleCheck).join('\n');
    // toViolations' optional arguments, in its order, the empty ones at the end left out:
    // - the version parameters, hidden from models, never named in an unknown parameter's hint (still accepted);
    // - the provider's names for parameters the tool renames (Notion's children for child_blocks), which a model that
    //   knows the API sends: an unknown parameter so named is pointed at the tool's own;
    // - the provider's parameters the tool lacks (Notion's filter): an input naming one is told what to send instead.
    const optional: (readonly string[] | Record<string, string>)[] = [tool.versionParameters, wireNames(tool), tool.absentParameters];
    while (optional.length > 0 && Object.keys(optional[optional.length - 1]!).length === 0) optional.pop();
    const extraArgs = optional.map((arg) => `, ${JSON.stringify(arg)}`).join('');
    sf.addFunction({
      name: `validate${tool.typeName}`,
      isExported: true,
      docs: [`Checks an input of \`${tool.name}\`: its JSON Schema, then its rules. Every violation is reported.`],
      parameters: [{ name: 'input', type: 'unknown' }],
      returnType: `ValidationResult<${tool.typeName}Input>`,
      statements: [
        'let violations: Violation[] | undefined;',
        `if (!${check}(input)) violations = toViolations(${check}.errors, input, 'input', ${camelCase(tool.name)}InputSchema${extraArgs});`,
        ...(ruleCode
          ? [`if (typeof input === 'object' && input !== null && !Array.isArray(input)) {\nconst o = input as Record<string, unknown>;\n${ruleCode}\n}`]
          : []),
        `return violations === undefined ? { ok: true, value: input as ${tool.typeName}Input } : { ok: false, violations };`,
      ],
    });
  }
  return { path: 'validators.gen.ts', content: sf.text() };
}

/**
 * The request's names for the tool's parameters where they differ, `{children: "child_blocks"}`: each query key, and
 * each key of an object body, whose value is a parameter as it is (not through a helper), in every request version.
 * A name that is itself a parameter of the tool, or that maps to several parameters, is left out.
 */
function wireNames(tool: ToolModel): Record<string, string> {
  const all = new Set(tool.params.map((p) => p.name));
  // Never a computed or version parameter: a model is not pointed at those.
  const declared = new Set(tool.params.filter((p) => !p.hostComputed && !tool.versionParameters.includes(p.name)).map((p) => p.name));
  const found = new Map<string, Set<string>>();
  const add = (key: string, expr: Expr): void => {
    if (expr.kind !== 'param' || expr.name === key || all.has(key) || !declared.has(expr.name)) return;
    found.set(key, (found.get(key) ?? new Set()).add(expr.name));
  };
  for (const request of [tool.request, ...(tool.requestVersions ?? []).map((v) => v.request)]) {
    for (const [key, expr] of request.query) add(key, expr);
    if (request.body?.kind === 'object') for (const [key, expr] of request.body.members) add(key, expr);
  }
  const out: Record<string, string> = {};
  for (const [key, params] of [...found].sort(([a], [b]) => a.localeCompare(b))) if (params.size === 1) out[key] = [...params][0]!;
  return out;
}

function present(name: string, target = 'o'): string {
  return `${access(target, name)} !== undefined`;
}

function count(params: string[], target = 'o'): string {
  return params.map((p) => `(${present(p, target)} ? 1 : 0)`).join(' + ');
}

/** Pointer of the last present parameter among `params` (where a "too many" violation is reported). */
function lastPresentPointer(params: string[], target = 'o'): string {
  const rev = [...params].reverse();
  return rev.map((p, i) => (i < rev.length - 1 ? `${present(p, target)} ? ${JSON.stringify(`/${p}`)} : ` : JSON.stringify(`/${p}`))).join('');
}

/** `Neither a nor b is given.` / `None of a, b, c is given.` */
function noneGiven(params: string[]): string {
  return params.length === 2 ? `Neither ${params[0]} nor ${params[1]} is given.` : `None of ${params.join(', ')} is given.`;
}

function push(pointer: string, rule: RuleModel): string {
  return `(violations ??= []).push({ pointer: ${pointer}, message: ${JSON.stringify(rule.message)}, keyword: ${JSON.stringify(rule.kind)} });`;
}

function ruleCheck(rule: RuleModel): string {
  switch (rule.kind) {
    case 'host_computed':
      return `if (${present(rule.parameter)}) ${push(JSON.stringify(`/${rule.parameter}`), rule)}`;
    case 'exactly_one_of': {
      // None given: say so, at the first parameter's pointer (as `required` does); several: the rule's own message.
      const none = { ...rule, message: `${noneGiven(rule.params)} ${rule.message}` };
      return `{\nconst n = ${count(rule.params)};\nif (n === 0) ${push(JSON.stringify(`/${rule.params[0]}`), none)}\nelse if (n > 1) ${push(lastPresentPointer(rule.params), rule)}\n}`;
    }
    case 'at_most_one_of':
      return `if (${count(rule.params)} > 1) ${push(lastPresentPointer(rule.params), rule)}`;
    case 'at_least_one_of':
      return `if (${rule.params.map((p) => `${access('o', p)} === undefined`).join(' && ')}) ${push(JSON.stringify(`/${rule.params[0]}`), { ...rule, message: `${noneGiven(rule.params)} ${rule.message}` })}`;
    case 'required_if':
      return `if (${present(rule.present)} && ${access('o', rule.parameter)} === undefined) ${push(JSON.stringify(`/${rule.parameter}`), rule)}`;
    case 'forbidden_if':
      return `if (${present(rule.present)} && ${present(rule.parameter)}) ${push(JSON.stringify(`/${rule.parameter}`), rule)}`;
    case 'requires_value':
      return `if (${rule.equals === undefined ? present(rule.when) : `${access('o', rule.when)} === ${JSON.stringify(rule.equals)}`} && ${access('o', rule.parameter)} !== ${JSON.stringify(rule.value)}${rule.or_absent ? ` && ${access('o', rule.parameter)} !== undefined` : ''}) ${push(JSON.stringify(`/${rule.parameter}`), rule)}`;
    case 'check':
      // The check names its own pointers (into the value) and messages; the rule's message documents it. It gets the
      // whole input too, for a rule that depends on another parameter.
      return `if (${present(rule.parameter)}) {\nconst found = (checks.${rule.check} as checks.Check)(${access('o', rule.parameter)}, ${JSON.stringify(`/${rule.parameter}`)}, o);\nif (found.length > 0) (violations ??= []).push(...found);\n}`;
    case 'later_than': {
      // Compared only when both are valid dates or date-times: a value that is not is the format's violation.
      return `if (notLater(${access('o', rule.parameter)}, ${access('o', rule.than)})) ${push(JSON.stringify(`/${rule.parameter}`), rule)}`;
    }
    case 'not_all_zero':
      return `if ((${rule.params.map((p) => present(p)).join(' || ')}) && ${rule.params.map((p) => `(${access('o', p)} === undefined || ${access('o', p)} === 0)`).join(' && ')}) ${push(lastPresentPointer(rule.params), rule)}`;
    case 'items_exactly_one_of': {
      const list = access('o', rule.parameter);
      return [
        `if (Array.isArray(${list})) {`,
        `const items: unknown[] = ${list};`,
        'for (let i = 0; i < items.length; i++) {',
        'const item = items[i];',
        "if (typeof item !== 'object' || item === null) continue;",
        'const it = item as Record<string, unknown>;',
        `if (${count(rule.of, 'it')} !== 1) ${push(`${JSON.stringify(`/${rule.parameter}/`)} + i`, rule)}`,
        '}',
        '}',
      ].join('\n');
    }
  }
}
