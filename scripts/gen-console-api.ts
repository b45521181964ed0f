import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '../shared/domain/openapi';

/** Where the console's API types live (committed; a unit test checks they match the document). */
export const CONSOLE_API_TYPES = fileURLToPath(new URL('../console/src/api/schema.d.ts', import.meta.url));

const HEADER = '// Generated from the OpenAPI document by `npm run gen:console-api`. Do not edit.\n';

/** The console's API types, as openapi-typescript writes them from our OpenAPI document. */
export async function consoleApiTypes(): Promise<string> {
  const ast = await openapiTS(buildOpenApiDocument() as unknown as Parameters<typeof openapiTS>[0], { defaultNonNullable: false });
  return HEADER + astToString(ast);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(CONSOLE_API_TYPES, await consoleApiTypes());
  console.log(`wrote ${CONSOLE_API_TYPES}`);
}
