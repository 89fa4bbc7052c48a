import type { Model } from '../model/types.js';
import type { EmittedFile } from './emitted-file.js';

/** `generated/catalog.json`: every tool's name, connector, description, version, aliases and input schema. */
export function emitCatalog(model: Model): EmittedFile {
  const tools = model.tools.map((t) => ({
    name: t.name,
    connector: t.connector,
    description: t.description,
    version: t.version,
    aliases: t.aliases,
    input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...t.inputSchema },
  }));
  return { path: 'catalog.json', content: `${JSON.stringify({ tools }, null, 2)}\n` };
}
