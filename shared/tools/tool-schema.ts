import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { unstorableJsonProblem } from '../domain/storable-json';
import { RE2JS } from 're2js';

/**
 * A custom tool's `parameters` is a JSON Schema (draft 2020-12) a business writes and the model
 * fills. It is checked when saved by a real validator (Ajv: the most used JSON Schema library for
 * JavaScript, the one the OpenAPI tests already use) and compiled once per call start to check
 * the model's arguments before the business's server is called.
 *
 * Three things make an untrusted schema safe to compile and run in the call engine's process:
 * - size and depth are bounded before Ajv sees it;
 * - every `pattern` runs on RE2 (re2js, a pure-JavaScript port: linear time, no native build),
 *   never on the backtracking engine, so a pattern cannot stall every call on the process
 *   (ReDoS); a pattern RE2 cannot compile (look-arounds, back-references) is refused at save;
 * - `$id` is refused and each compiled schema is removed from Ajv's cache at once, so schemas of
 *   different businesses never share a namespace and the long-lived instance does not grow.
 */

/**
 * Bounds of a tool's `parameters` (docs/design.md "Custom tools"). `maxExpandedNodes` bounds the schema as if
 * every `$ref` were written out in place: checking one value costs at most that many schema nodes
 * per node of the value, so a few `$defs` that each reference the next twice (an `anyOf` of two refs)
 * cannot make one check take 2^n steps on the call engine's event loop. `maxPatternInstructions`
 * bounds the RE2 programs of all patterns together (refs written out): RE2 is linear in the text
 * but also in the program, and `\p{L}{1000}` is 1,000 instructions, so twenty such patterns on
 * one 8,000-character argument took 7.6 s; within the bound one check takes ~0.1 s at worst.
 */
export const TOOL_PARAMETERS_LIMITS = {
  maxJsonChars: 16_384,
  maxDepth: 16,
  maxExpandedNodes: 20_000,
  maxPatternInstructions: 1_000,
} as const;

/** Reference keywords whose targets are found at run time; only plain local `$ref` is accepted. */
const DYNAMIC_REF_KEYS = new Set(['$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', '$anchor']);

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * RE2 instead of RegExp for `pattern`/`patternProperties` (JSON Schema patterns search, unanchored).
 * Ajv de-duplicates compiled patterns by `toString()`, so each one must print as itself.
 */
function re2(pattern: string, flags: string): { test(s: string): boolean; toString(): string } {
  const compiled = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  return { test: (text) => compiled.test(text), toString: () => `re2:/${pattern}/${flags}` };
}
re2.code = 'require("re2js").RE2JS';

const ajv = new Ajv2020({
  allErrors: false,
  // Unknown keywords and formats are errors: a misspelt "requried" must not silently validate nothing.
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  // `format` is an annotation (as draft 2020-12 makes it by default): no format's own regex runs on the model's text.
  validateFormats: false,
  code: { regExp: re2 },
});

/** Depth and forbidden keys of a JSON value, walked once; null when acceptable. */
function shapeProblem(value: unknown, depth: number): string | null {
  if (depth > TOOL_PARAMETERS_LIMITS.maxDepth) return `nested deeper than ${TOOL_PARAMETERS_LIMITS.maxDepth} levels`;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    if (!Array.isArray(value) && key === '$id') return '"$id" is not allowed';
    // JavaScript's own names: "constructor" holding an object cannot be stored (the DynamoDB
    // marshaller takes it for a class instance) and "__proto__" is not an ordinary key once parsed.
    if (!Array.isArray(value) && (key === 'constructor' || key === '__proto__')) return `"${key}" is not allowed as a name`;
    const problem = shapeProblem(child, depth + 1);
    if (problem !== null) return problem;
  }
  return null;
}

/** The value a local JSON pointer `$ref` (`#`, `#/$defs/a`) names in `root`, or undefined. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (target === null || typeof target !== 'object' || !Object.hasOwn(target, part)) return undefined;
    target = (target as Record<string, unknown>)[part];
  }
  return target;
}

/** The instructions of a pattern's RE2 program (checking a text costs about that many steps a character); 0 when it does not compile (Ajv says why). */
function patternInstructions(pattern: string): number {
  try {
    const compiled = RE2JS.compile(pattern) as unknown as { re2Input?: { prog?: { inst?: unknown[] } } };
    return compiled.re2Input?.prog?.inst?.length ?? pattern.length * 10;
  } catch {
    return 0;
  }
}

/** Schema nodes and pattern instructions, with every `$ref` written out in place. */
type Weight = { nodes: number; patterns: number };

/**
 * The schema's size with every `$ref` written out in place (memoised, so linear in the schema),
 * or why that cannot be measured: a `$ref` that is not a local JSON pointer, one that leads back
 * to itself, or a dynamic reference. Any string-valued `$ref` key counts, wherever it is, so
 * nothing the validator may follow goes unmeasured; so does every `pattern` string and every
 * `patternProperties` key, by its RE2 program's size.
 */
function expandedSizeProblem(root: Record<string, unknown>): string | null {
  const weights = new Map<object, Weight>();
  const open = new Set<object>();
  const { maxExpandedNodes, maxPatternInstructions } = TOOL_PARAMETERS_LIMITS;
  const weigh = (value: unknown): Weight | string => {
    if (value === null || typeof value !== 'object') return { nodes: 1, patterns: 0 };
    const known = weights.get(value);
    if (known !== undefined) return known;
    if (open.has(value)) return 'a "$ref" may not lead back to the schema that contains it';
    open.add(value);
    const total: Weight = { nodes: 1, patterns: 0 };
    for (const [key, child] of Object.entries(value)) {
      const named = !Array.isArray(value);
      if (named && DYNAMIC_REF_KEYS.has(key)) return `"${key}" is not allowed; use "$ref" to "#/$defs/…"`;
      let weight: Weight | string;
      if (named && key === '$ref' && typeof child === 'string') {
        const target = resolveLocalRef(root, child);
        if (target === undefined)
          return `"$ref" must point inside this schema (such as "#/$defs/name"), not ${JSON.stringify(child.slice(0, 80))}`;
        weight = weigh(target);
      } else {
        weight = weigh(child);
      }
      if (typeof weight === 'string') return weight;
      total.nodes = Math.min(total.nodes + weight.nodes, maxExpandedNodes + 1);
      total.patterns = Math.min(total.patterns + weight.patterns, maxPatternInstructions + 1);
      if (named && key === 'pattern' && typeof child === 'string') total.patterns += patternInstructions(child);
      if (named && key === 'patternProperties' && child !== null && typeof child === 'object')
        for (const pattern of Object.keys(child)) total.patterns += patternInstructions(pattern);
      total.patterns = Math.min(total.patterns, maxPatternInstructions + 1);
    }
    open.delete(value);
    weights.set(value, total);
    return total;
  };
  const total = weigh(root);
  if (typeof total === 'string') return total;
  if (total.nodes > maxExpandedNodes) return `its "$ref"s written out in place come to more than ${maxExpandedNodes} schema nodes`;
  if (total.patterns > maxPatternInstructions)
    return `its patterns are too complex together (more than ${maxPatternInstructions} RE2 instructions, counting each "$ref" written out): use fewer or simpler patterns, or maxLength`;
  return null;
}

/** Ajv's first complaint about a schema, in one short sentence. */
function schemaErrorText(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'not a valid JSON Schema';
  return `${first.instancePath || 'the schema'} ${first.message ?? 'is invalid'}`;
}

function compileChecked(parameters: Record<string, unknown>): ValidateFunction {
  try {
    return ajv.compile(parameters);
  } finally {
    ajv.removeSchema(parameters);
  }
}

/**
 * Why `parameters` is not an acceptable tool schema, or null when it is: an object schema
 * (`"type": "object"`), within {@link TOOL_PARAMETERS_LIMITS}, valid against the draft 2020-12
 * meta-schema, with no unknown keyword, no `$id`, no remote `$ref`, and RE2-compatible patterns.
 *
 * @example
 * toolParametersProblem({ type: 'object', properties: { n: { type: 'integr' } } });
 * // → '/properties/n/type must be equal to one of the allowed values'
 */
export function toolParametersProblem(parameters: unknown): string | null {
  if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) return 'must be a JSON Schema object';
  const schema = parameters as Record<string, unknown>;
  if (schema.type !== 'object') return 'must have "type": "object" (a tool takes named arguments)';
  if (JSON.stringify(schema).length > TOOL_PARAMETERS_LIMITS.maxJsonChars)
    return `is longer than ${TOOL_PARAMETERS_LIMITS.maxJsonChars} characters of JSON`;
  const shape = shapeProblem(schema, 0) ?? expandedSizeProblem(schema);
  if (shape !== null) return shape;
  const unstorable = unstorableJsonProblem(schema);
  if (unstorable !== null) return `cannot be stored: ${unstorable}`;
  if (schema.$schema !== undefined && schema.$schema !== DIALECT) return `"$schema" must be ${DIALECT} (or left out)`;
  if (!ajv.validateSchema(schema)) return schemaErrorText(ajv.errors);
  try {
    compileChecked(schema);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `cannot be compiled: ${message.split('\n')[0]!.slice(0, 200)}`;
  }
}

/** The model's arguments checked against a tool's schema: null when valid, else plain words. */
export type ArgumentsCheck = (args: unknown) => string | null;

/**
 * Compiles a saved schema for the model's arguments. The problems are worded for the model
 * (field path and rule, never the value the model sent), at most five of them.
 *
 * @throws Error when the schema does not compile or its `$ref`s expand past the bounds (a record saved before these checks existed).
 */
export function compileArgumentsCheck(parameters: Record<string, unknown>): ArgumentsCheck {
  const expansion = expandedSizeProblem(parameters);
  if (expansion !== null) throw new Error(`tool parameters refused: ${expansion}`);
  const validate = compileChecked(parameters);
  return (args) => {
    if (validate(args)) return null;
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((error) => `${error.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'arguments'} ${error.message ?? 'is invalid'}`)
      .join('; ');
  };
}
