import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';

/** One value a client holds, and the generated type it must fit (a type expression over `./api`). */
export interface TypedSample {
  name: string;
  type: string;
  value: unknown;
}

/**
 * TypeScript types for the document, as a client generates them with openapi-typescript.
 * `defaultNonNullable: false`: a field with a `default` is optional unless `required` says
 * otherwise (docs/decisions.md "The OpenAPI document"); the README gives the same flag.
 */
export async function generateClientTypes(document: object, options: { defaultNonNullable?: boolean } = {}): Promise<string> {
  const nodes = await openapiTS(document as OpenAPI3, { defaultNonNullable: options.defaultNonNullable ?? false, silent: true });
  return astToString(nodes);
}

/** `export const <name>: <type> = <the value as a literal>;` for each sample, importing the generated types. */
function samplesFile(samples: readonly TypedSample[]): string {
  const lines = samples.map((sample) => `export const ${sample.name}: ${sample.type} = ${JSON.stringify(sample.value, null, 2)};`);
  return [`import type { components, operations } from './api';`, 'type Schemas = components["schemas"];', ...lines, ''].join('\n');
}

/**
 * Writes the generated types and the samples as object literals to a temp dir and compiles them
 * with the TypeScript compiler API (strict). A literal is checked against its type key by key,
 * nested objects and arrays included, so a key the type lacks is an error ("Object literal may
 * only specify known properties"), as a missing required key is. Returns the diagnostics as text.
 */
export async function typeCheckSamples(types: string, samples: readonly TypedSample[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'typed-client-'));
  try {
    const [api, checks] = [join(dir, 'api.ts'), join(dir, 'samples.ts')];
    await writeFile(api, types);
    await writeFile(checks, samplesFile(samples));
    const program = ts.createProgram([api, checks], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file || diagnostic.start === undefined) return text;
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      return `${diagnostic.file.fileName.slice(dir.length + 1)}:${line + 1}: ${text}`;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
