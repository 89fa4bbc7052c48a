import type { Project } from 'ts-morph';
import type { Model, ToolModel } from '../model/types.js';
import { FileBuilder } from './file-builder.js';
import type { EmittedFile } from './emitted-file.js';
import { camelCase, literal } from './ts-text.js';

/**
 * `generated/schemas.gen.ts` (each tool's input JSON Schema) and `generated/tools.gen.ts` (the {@link ToolDefinition}
 * of every tool, and the lookup by name or alias).
 */
export function emitTools(model: Model, project: Project): EmittedFile[] {
  const schemas = new FileBuilder(project, 'schemas.gen.ts');
  schemas.addImportDeclaration({ moduleSpecifier: '../runtime/types.js', isTypeOnly: true, namedImports: ['JsonSchema'] });
  for (const t of model.tools) {
    schemas.addVariableStatement({
      isExported: true,
      docs: [`JSON Schema 2020-12 of the input of \`${t.name}\`.`],
      declarations: [{ name: `${camelCase(t.name)}InputSchema`, type: 'JsonSchema', initializer: literal(t.inputSchema) }],
    });
    schemas.addVariableStatement({
      isExported: true,
      docs: [`JSON Schema of the result of \`${t.name}\` (its notable fields).`],
      declarations: [{ name: `${camelCase(t.name)}OutputSchema`, type: 'JsonSchema', initializer: literal(t.output) }],
    });
  }

  const sf = new FileBuilder(project, 'tools.gen.ts');
  sf.addImportDeclaration({ moduleSpecifier: '../runtime/types.js', isTypeOnly: true, namedImports: ['ToolDefinition'] });
  if (model.tools.some((t) => t.transform)) sf.addImportDeclaration({ moduleSpecifier: '../runtime/helpers/index.js', namespaceImport: 'helpers' });
  if (model.tools.some((t) => t.precheck)) sf.addImportDeclaration({ moduleSpecifier: '../runtime/prechecks/index.js', namespaceImport: 'prechecks' });
  if (model.tools.length) {
    sf.addImportDeclaration({ moduleSpecifier: './builders.gen.js', namedImports: model.tools.map((t) => `build${t.typeName}`) });
    sf.addImportDeclaration({ moduleSpecifier: './schemas.gen.js', namedImports: model.tools.flatMap((t) => [`${camelCase(t.name)}InputSchema`, `${camelCase(t.name)}OutputSchema`]) });
    sf.addImportDeclaration({ moduleSpecifier: './types.gen.js', isTypeOnly: true, namedImports: model.tools.map((t) => `${t.typeName}Input`) });
    sf.addImportDeclaration({ moduleSpecifier: './validators.gen.js', namedImports: model.tools.map((t) => `validate${t.typeName}`) });
  }
  for (const t of model.tools) {
    const fields = [
      `name: ${JSON.stringify(t.name)}`,
      `connector: ${JSON.stringify(t.connector)}`,
      `version: ${JSON.stringify(t.version)}`,
      `versions: ${JSON.stringify(t.versions)}`,
      `schemaVersions: ${JSON.stringify(t.schemaVersions)}`,
      `aliases: ${JSON.stringify(t.aliases)}`,
      `title: ${JSON.stringify(t.title)}`,
      `description: ${JSON.stringify(t.description)}`,
      `annotations: ${JSON.stringify(t.annotations)}`,
      `inputSchema: ${camelCase(t.name)}InputSchema`,
      `versionParameters: ${JSON.stringify(t.versionParameters)}`,
      `ruleMessages: ${JSON.stringify(ruleMessages(t))}`,
      `outputSchema: ${camelCase(t.name)}OutputSchema`,
      `retry: ${JSON.stringify(t.retry)}`,
      `validate: validate${t.typeName}`,
      `buildRequest: build${t.typeName}`,
      ...(t.transform ? [`transformResponse: helpers.${t.transform}`] : []),
      ...(t.precheck ? [`precheck: prechecks.${t.precheck}`] : []),
      ...(t.upstreamErrors.length ? [`upstreamErrors: ${literal(t.upstreamErrors, '  ')}`] : []),
    ];
    sf.addVariableStatement({
      isExported: true,
      docs: [`\`${t.name}\` (${t.connector}, v${t.version}).`],
      declarations: [{ name: camelCase(t.name), type: `ToolDefinition<${t.typeName}Input>`, initializer: `{\n${fields.map((f) => `  ${f},`).join('\n')}\n}` }],
    });
  }
  sf.addVariableStatement({
    isExported: true,
    docs: ['Every tool, sorted by name.'],
    declarations: [{ name: 'tools', type: 'readonly ToolDefinition[]', initializer: `[${model.tools.map((t) => camelCase(t.name)).join(', ')}]` }],
  });
  const entries = model.tools.flatMap((t) => [t.name, ...t.aliases].map((n) => [n, camelCase(t.name)] as const)).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  sf.addVariableStatement({
    isExported: true,
    docs: ['Every tool by name and by alias.'],
    declarations: [{ name: 'toolsByName', type: 'ReadonlyMap<string, ToolDefinition>', initializer: `new Map<string, ToolDefinition>([\n${entries.map(([n, v]) => `  [${JSON.stringify(n)}, ${v}],`).join('\n')}\n])` }],
  });
  return [
    { path: 'schemas.gen.ts', content: schemas.text() },
    { path: 'tools.gen.ts', content: sf.text() },
  ];
}

/** The messages of the rules a caller can break (not host_computed), each once: the model-facing text states them. */
export function ruleMessages(t: ToolModel): string[] {
  return [...new Set(t.rules.filter((r) => r.kind !== 'host_computed').map((r) => r.message))];
}

/** `generated/connectors.gen.ts`: every {@link ConnectorDefinition}, keyed by connector name. */
export function emitConnectors(model: Model, project: Project): EmittedFile {
  const sf = new FileBuilder(project, 'connectors.gen.ts');
  sf.addImportDeclaration({ moduleSpecifier: '../runtime/types.js', isTypeOnly: true, namedImports: ['ConnectorDefinition', 'ConnectorName'] });
  const complete = model.connectorNames.length === 5;
  sf.addVariableStatement({
    isExported: true,
    docs: ['Every connector, from specs/connectors/.'],
    declarations: [{
      name: 'connectors',
      // A partial spec set (tests) cannot claim every ConnectorName.
      type: complete ? 'Readonly<Record<ConnectorName, ConnectorDefinition>>' : 'Readonly<Partial<Record<ConnectorName, ConnectorDefinition>>>',
      initializer: `{\n${model.connectors.map((c) => `  ${c.name}: ${literal(c, '  ')},`).join('\n')}\n}`,
    }],
  });
  return { path: 'connectors.gen.ts', content: sf.text() };
}

/** `generated/client.gen.ts`: the typed client, one method per tool, over any transport with `executeTool`. */
export function emitClient(model: Model, project: Project): EmittedFile {
  const sf = new FileBuilder(project, 'client.gen.ts');
  sf.addImportDeclaration({ moduleSpecifier: '../runtime/api.js', isTypeOnly: true, namedImports: ['ExecuteToolInput', 'ExecuteToolResult'] });
  if (model.tools.length) {
    sf.addImportDeclaration({ moduleSpecifier: './types.gen.js', isTypeOnly: true, namedImports: model.tools.flatMap((t) => [`${t.typeName}Input`, `${t.typeName}Output`]) });
  }
  sf.addInterface({
    name: 'ToolTransport',
    isExported: true,
    docs: ['Anything that runs a tool: the in-process runtime (`connector.environment(id)`) or the HTTP client.'],
    methods: [{ name: 'executeTool', parameters: [{ name: 'request', type: 'ExecuteToolInput' }], returnType: 'Promise<ExecuteToolResult>' }],
  });
  sf.addInterface({
    name: 'ToolCallOptions',
    isExported: true,
    docs: ['Whose account runs the tool.'],
    properties: [
      { name: 'identifier', type: 'string', docs: ['The end user, as the application names them.'] },
      { name: 'connection_name', type: 'string', hasQuestionToken: true, docs: ["May be omitted when the identifier has one account for the tool's connector."] },
    ],
  });
  sf.addInterface({
    name: 'ToolClient',
    isExported: true,
    docs: ['One typed method per tool.'],
    methods: model.tools.map((t) => ({
      name: t.name,
      docs: [t.description.split('\n')[0]!],
      parameters: [{ name: 'input', type: `${t.typeName}Input` }, { name: 'options', type: 'ToolCallOptions' }],
      returnType: `Promise<ExecuteToolResult<${t.typeName}Output>>`,
    })),
  });
  sf.addFunction({
    name: 'createToolClient',
    isExported: true,
    docs: ['A {@link ToolClient} whose methods send `executeTool` requests through `transport`.'],
    parameters: [{ name: 'transport', type: 'ToolTransport' }],
    returnType: 'ToolClient',
    statements: [
      'const call = <O>(toolName: string, input: object, options: ToolCallOptions): Promise<ExecuteToolResult<O>> =>',
      '  transport.executeTool({',
      '    tool_name: toolName,',
      '    identifier: options.identifier,',
      '    ...(options.connection_name === undefined ? {} : { connection_name: options.connection_name }),',
      '    tool_input: input as Record<string, unknown>,',
      '  }) as Promise<ExecuteToolResult<O>>;',
      `return {\n${model.tools.map((t) => `  ${t.name}: (input, options) => call<${t.typeName}Output>(${JSON.stringify(t.name)}, input, options),`).join('\n')}\n};`,
    ],
  });
  return { path: 'client.gen.ts', content: sf.text() };
}
