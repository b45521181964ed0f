import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ACTION_TOOLS } from '../../../../media-service/src/tools/registry';
import { NEXT_STEP_TOOL } from '../../../../media-service/src/call/workflow/node-type';
import { SEARCH_KNOWLEDGE_TOOL } from '../../../../media-service/src/tools/search-knowledge';
import { RESERVED_TOOL_NAMES } from '../../../../shared/domain/tool';

describe.each(ACTION_TOOLS.map((tool) => [tool.definition.name, tool] as const))('the built-in tool %s', (name, tool) => {
  const parameters = tool.definition.parameters as { properties: Record<string, unknown>; required?: string[] };
  const entries = (tool.args as unknown as v.ObjectSchema<v.ObjectEntries, undefined>).entries;

  it('has a reserved name, so no custom tool can take it', () => {
    // Assert
    expect(RESERVED_TOOL_NAMES).toContain(name);
  });

  it('describes to the model exactly the arguments it validates', () => {
    // Assert: the same fields, and the ones the model must send are the schema's required ones
    expect(Object.keys(parameters.properties).sort()).toEqual(Object.keys(entries).sort());
    const required = Object.keys(entries).filter((key) => entries[key]!.type !== 'optional');
    expect([...(parameters.required ?? [])].sort()).toEqual(required.sort());
  });

  it('says when to use it, in more than a line', () => {
    // Assert
    expect(tool.definition.description?.length ?? 0).toBeGreaterThan(100);
  });
});

it.each([SEARCH_KNOWLEDGE_TOOL, NEXT_STEP_TOOL])('the platform tool %s has a reserved name too', (name) => {
  expect(RESERVED_TOOL_NAMES).toContain(name);
});
