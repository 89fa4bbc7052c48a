import type { Model } from '../model/types.js';
import { newEmitProject } from '../project.js';
import { emitBuilders } from './emit-builders.js';
import { emitCatalog } from './emit-catalog.js';
import { emitDocs } from './emit-docs.js';
import type { EmittedFile } from './emitted-file.js';
import { buildOpenApi } from './emit-openapi.js';
import { emitOpenApiTypes } from './emit-openapi-types.js';
import { emitClient, emitConnectors, emitTools } from './emit-tools.js';
import { emitTypes } from './emit-types.js';
import { emitValidators } from './emit-validators.js';
import { GENERATED_HEADER } from './ts-text.js';

/** Every emitter, in a fixed order; the result is sorted by path so output never depends on timing. */
export async function emitAll(model: Model): Promise<EmittedFile[]> {
  const project = newEmitProject();
  const openapi = buildOpenApi(model);
  const files: EmittedFile[] = [
    emitTypes(model, project),
    ...emitValidators(model, project),
    emitBuilders(model, project),
    ...emitTools(model, project),
    emitConnectors(model, project),
    emitClient(model, project),
    emitCatalog(model),
    { path: 'openapi.json', content: `${JSON.stringify(openapi, null, 2)}\n` },
    await emitOpenApiTypes(openapi),
    ...emitDocs(model),
  ];
  return files.map(normalizeFile).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** LF line endings, exactly one trailing newline, and the fixed header first in every TypeScript file. */
function normalizeFile(f: EmittedFile): EmittedFile {
  let content = f.content.replace(/\r\n/g, '\n').replace(/\s*$/, '\n');
  if (f.path.endsWith('.ts') && !content.startsWith(GENERATED_HEADER)) content = `${GENERATED_HEADER}\n${content}`;
  return { path: f.path, content };
}
