import openapiTS, { astToString } from 'openapi-typescript';
import type { EmittedFile } from './emitted-file.js';
import { GENERATED_HEADER } from './ts-text.js';

/** `generated/openapi-types.gen.ts`: openapi-typescript's types for `openapi.json` (proves the document is usable). */
export async function emitOpenApiTypes(document: Record<string, unknown>): Promise<EmittedFile> {
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return { path: 'openapi-types.gen.ts', content: `${GENERATED_HEADER}\n${astToString(ast)}` };
}
