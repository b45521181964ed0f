import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, NON_API_ERROR_CODES } from '../../../shared/domain/error-codes';
import { buildOpenApiDocument } from '../../../shared/domain/openapi';

const ROOT = join(import.meta.dirname, '../../..');

/** The code the API runs: the HTTP layer and everything it calls. */
const API_SOURCE = ['functions', 'shared'];

/** Where a code outside {@link API_ERROR_CODES} may be given: no API route reaches these. */
const NON_API_PLACES: Record<(typeof NON_API_ERROR_CODES)[number], string> = {
  invalid_argument: 'shared/services/admin-service.ts',
  number_taken: 'shared/db/catalog-repository.ts',
  validation_error: 'shared/errors.ts',
};

/**
 * Every error code written in the API's source, with its file: `new AppError('x'`,
 * `new ConflictError('x'`, `super('x'` in a class extending an error, and the bodies the app
 * answers without throwing (`errorBody('x'`, `code: 'x'` in `functions/api`).
 */
function codesInSource(): { code: string; file: string }[] {
  const found: { code: string; file: string }[] = [];
  for (const top of API_SOURCE) {
    for (const name of readdirSync(join(ROOT, top), { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.ts')) continue;
      const file = `${top}/${name}`;
      const text = readFileSync(join(ROOT, file), 'utf8');
      const patterns = [/new\s+(?:AppError|ConflictError)\(\s*'([a-z_]+)'/g, /errorBody\(\s*'([a-z_]+)'/g];
      if (/extends\s+\w*Error\b/.test(text)) patterns.push(/super\(\s*'([a-z_]+)'/g);
      if (file.startsWith('functions/api/')) patterns.push(/\bcode:\s*'([a-z_]+)'/g);
      for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push({ code: match[1]!, file });
    }
  }
  return found;
}

describe('error codes: one list, the OpenAPI enum and the source agree', () => {
  const found = codesInSource();

  it('finds the codes the source gives (the scan itself works)', () => {
    // Assert
    expect(found.map((entry) => entry.code)).toEqual(expect.arrayContaining(['not_found', 'tool_in_use', 'search_unavailable']));
  });

  it('every code the source gives is in API_ERROR_CODES, or is a non-API code given only where no route reaches', () => {
    // Act
    const misplaced = found.filter(({ code, file }) => {
      if ((API_ERROR_CODES as readonly string[]).includes(code)) return false;
      return NON_API_PLACES[code as keyof typeof NON_API_PLACES] !== file;
    });
    // Assert: add a new code to shared/domain/error-codes.ts (and the Errors table of docs/api-tour.md)
    expect(misplaced).toEqual([]);
  });

  it('every code in API_ERROR_CODES is given somewhere (no stale enum entry)', () => {
    // Act
    const given = new Set(found.map((entry) => entry.code));
    // Assert
    expect(API_ERROR_CODES.filter((code) => !given.has(code))).toEqual([]);
  });

  it("is the OpenAPI document's ErrorBody.code enum, exactly", () => {
    // Act
    const schemas = (buildOpenApiDocument().components as { schemas: Record<string, any> }).schemas;
    // Assert
    expect(schemas.ErrorBody.properties.code.enum).toEqual([...API_ERROR_CODES]);
  });

  it('is listed in the Errors table of docs/api-tour.md, code by code', () => {
    // Arrange
    const tour = readFileSync(join(ROOT, 'docs', 'api-tour.md'), 'utf8');
    const errors = tour.slice(tour.indexOf('### Errors'), tour.indexOf('### Input rules'));
    // Assert
    expect(API_ERROR_CODES.filter((code) => !errors.includes(`\`${code}\``))).toEqual([]);
  });
});
