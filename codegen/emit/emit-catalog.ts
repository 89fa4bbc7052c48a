import type { Model } from '../model/types.js';
import type { EmittedFile } from './emitted-file.js';

/**
 * `generated/catalog.json`: every tool's name, connector, title, description, annotations, version, aliases, input
 * schema and output schema.
 */
export function emitCatalog(model: Model): EmittedFile {
  const tools = model.tools.map((t) => ({
    name: t.name,
    connector: t.connector,
    title: t.title,
    description: t.description,
    annotations: { read_only: t.annotations.readOnly, destructive: t.annotations.destructive, idempotent: t.annotations.idempotent, open_world: t.annotations.openWorld },
    version: t.version,
    aliases: t.aliases,
    input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...t.inputSchema },
    output_schema: t.output,
  }));
  return { path: 'catalog.json', content: `${JSON.stringify({ tools }, null, 2)}\n` };
}
