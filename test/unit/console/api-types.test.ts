import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CONSOLE_API_TYPES, consoleApiTypes } from '../../../scripts/gen-console-api';

describe("the console's API types", () => {
  it('match the OpenAPI document (after an API change, run `npm run gen:console-api` and fix what the console typecheck then reports)', async () => {
    const committed = await readFile(CONSOLE_API_TYPES, 'utf8');
    expect(committed === (await consoleApiTypes())).toBe(true);
  });
});
