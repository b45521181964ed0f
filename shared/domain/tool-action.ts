import * as v from 'valibot';
import { storableJson } from './storable-json';
import { intField, strictDict } from './validation';

/**
 * The bounds of a call's `actions` (docs/design.md "Actions"): a model looping on a tool, or
 * arguments the size of a novel, must not grow a call's detail item towards DynamoDB's 400 KB.
 */
export const ACTION_LIMITS = {
  /** Tool calls recorded per call; later ones still run, and the record says how many were dropped. */
  maxActions: 50,
  /** The arguments' JSON text; larger arguments are recorded as `{"truncated": true, "chars": N}`. */
  maxArgumentChars: 2000,
  /** The short result and the error, each. */
  maxTextChars: 300,
} as const;

/**
 * One tool call the assistant made on a call, in order (GET /calls/{id} `actions`): what it asked,
 * with which arguments (redacted per `advanced.redact`; `{}` under HIPAA), whether it worked, a
 * short result or the error the model was told, when (ms from the call's start) and how long it ran.
 */
export const ToolActionSchema = strictDict({
  name: v.string(),
  arguments: v.pipe(v.record(v.string(), v.unknown()), v.description('The arguments the model sent (redacted per `advanced.redact`).')),
  ok: v.boolean(),
  result: v.pipe(v.string(), v.description("A short summary of what the tool did ('' when it failed).")),
  error: v.pipe(v.nullable(v.string()), v.description('What went wrong, in the words the model was told; null when it worked.')),
  at_ms: v.pipe(intField({ ge: 0 }), v.description('When the model asked, ms from the start of the call.')),
  duration_ms: v.pipe(intField({ ge: 0 }), v.description('How long the tool ran.')),
});

/** One entry of a call's `actions`. */
export type ToolAction = v.InferOutput<typeof ToolActionSchema>;

/** Cuts `text` to `max` characters, marking the cut. */
export function clipActionText(text: string, max: number = ACTION_LIMITS.maxTextChars): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The arguments as the record keeps them: the model's JSON object when it parses and fits (made
 * storable: a number DynamoDB cannot hold kept as text, an empty key renamed),
 * `{"invalid_json": true}` when it does not parse, `{"truncated": true, "chars": N}` when too big.
 */
export function recordedArguments(json: string): Record<string, unknown> {
  if (json.length > ACTION_LIMITS.maxArgumentChars) return { truncated: true, chars: json.length };
  try {
    const value: unknown = JSON.parse(json === '' ? '{}' : json);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (storableJson(value) as Record<string, unknown>)
      : { invalid_json: true };
  } catch {
    return { invalid_json: true };
  }
}
