import { baseUrl } from '../api/client';
import type { OpenApiDoc } from './schema-fields';

let cached: Promise<OpenApiDoc> | undefined;

/**
 * The API's OpenAPI document (`GET /openapi.json`, public), read once per page load and kept in
 * memory: the forms are generated from it, so they follow the API that is running, not the one
 * the console was built against. A failed read is not kept, so the next page tries again.
 */
export function openApiDoc(): Promise<OpenApiDoc> {
  cached ??= fetch(`${baseUrl}/openapi.json`, { headers: { accept: 'application/json' } }).then(async (response) => {
    if (!response.ok) throw new Error(`The API's description could not be read (HTTP ${response.status}).`);
    return (await response.json()) as OpenApiDoc;
  });
  cached.catch(() => (cached = undefined));
  return cached;
}
