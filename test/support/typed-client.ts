import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
 * Strict, and only the ES5 library: the generated types and the samples use nothing newer, and the
 * default library of an ES2022 target (with the DOM) is most of what the compiler would parse and
 * check, several seconds per program.
 */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es5.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: [],
};

/** Parsed library files, kept across the programs of one test file: parsing them is the same each time. */
const libraryFiles = new Map<string, ts.SourceFile>();

/** A compiler host that parses each TypeScript library file once per process. */
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const libraryDir = dirname(ts.getDefaultLibFilePath(options));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (!fileName.startsWith(libraryDir)) return getSourceFile(fileName, languageVersion, ...rest);
    let file = libraryFiles.get(fileName);
    if (!file) {
      file = getSourceFile(fileName, languageVersion, ...rest);
      if (file) libraryFiles.set(fileName, file);
    }
    return file;
  };
  return host;
}

/**
 * Writes the generated types and the samples as object literals to a temp dir and compiles them
 * with the TypeScript compiler API (strict). A literal is checked against its type key by key,
 * nested objects and arrays included, so a key the type lacks is an error ("Object literal may
 * only specify known properties"), as a missing required key is. Returns the diagnostics as text.
 */
export async function typeCheckSamples(types: string, samples: readonly TypedSample[]): Promise<string[]> {
  return typeCheckFiles({ 'api.ts': types, 'samples.ts': samplesFile(samples) }, COMPILER_OPTIONS);
}

/**
 * A client program over the generated types (`./api`), as a user writes one: `openapi-fetch`
 * resolves to this repository's copy, and the DOM library gives it `fetch`, `Request` and `Response`.
 */
export async function typeCheckClient(types: string, program: string): Promise<string[]> {
  const openapiFetch = fileURLToPath(import.meta.resolve('openapi-fetch')).replace(/\.mjs$/, '.d.mts');
  const options: ts.CompilerOptions = {
    ...COMPILER_OPTIONS,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    paths: { 'openapi-fetch': [openapiFetch] },
  };
  return typeCheckFiles({ 'api.ts': types, 'client.ts': program }, options);
}

/** Writes `files` to a temp dir, compiles them together and returns the diagnostics as `file:line: text`. */
async function typeCheckFiles(files: Record<string, string>, options: ts.CompilerOptions): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'typed-client-'));
  try {
    const rootNames = await Promise.all(
      Object.entries(files).map(async ([name, text]) => {
        await writeFile(join(dir, name), text);
        return join(dir, name);
      }),
    );
    const program = ts.createProgram({ rootNames, options, host: cachingHost(options) });
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
