import type { STRUCTURED_TYPES, SUCCESS_SCALES } from './assistant-config-sections';
import type { Outcome } from './call';

/** How a call's success is judged (spec AnalysisCfg `success_scale`). */
export type SuccessScale = (typeof SUCCESS_SCALES)[number];

/** How a structured value is typed (spec StructuredField `type`). */
export type StructuredFieldType = (typeof STRUCTURED_TYPES)[number];

/**
 * One value to extract from a call (spec StructuredField). `type`, `description` and `options` may
 * be absent and then take the spec defaults (string, empty, none), see {@link resolveField}.
 */
export interface StructuredFieldConfig {
  name: string;
  type?: StructuredFieldType;
  description?: string;
  options?: readonly string[];
}

/** A structured field with the spec defaults filled in. */
export type ResolvedField = Required<StructuredFieldConfig>;

/** Fills the spec defaults: type `string`, empty description, no options. */
export function resolveField(field: StructuredFieldConfig): ResolvedField {
  return { name: field.name, type: field.type ?? 'string', description: field.description ?? '', options: field.options ?? [] };
}

/**
 * The analysis settings this module needs (spec AnalysisCfg). Declared here, structurally, so the
 * analysis code depends on the spec's shape rather than on the request schema; the parsed
 * `AnalysisCfgSchema` output is assignable to it (pinned in the unit test).
 */
export interface AnalysisConfig {
  summary_prompt: string;
  success_rubric: string;
  success_scale: SuccessScale;
  structured: readonly StructuredFieldConfig[];
}

/** The outcomes the conversation decides (docs/design.md "Resources"); the others follow from `ended_reason`. */
export const LLM_OUTCOMES = [
  'resolved',
  'unresolved',
  'appointment_booked',
  'message_taken',
  'transferred',
] as const satisfies readonly Outcome[];

/** One of {@link LLM_OUTCOMES}. */
export type LlmOutcome = (typeof LLM_OUTCOMES)[number];

/** A JSON Schema node (plain JSON). */
export type JsonSchema = { [keyword: string]: unknown };

/** The `json_schema.name` the analysis request uses. */
export const ANALYSIS_SCHEMA_NAME = 'call_analysis';

/** A calendar date as structured `date` fields carry it: YYYY-MM-DD. */
export const ISO_DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** What each outcome means, shared by the schema descriptions and the prompt. */
export const OUTCOME_MEANINGS: Readonly<Record<LlmOutcome, string>> = {
  resolved: "the caller's need was fully handled during the call",
  unresolved: "the caller's need was not handled",
  appointment_booked: 'an appointment was booked, moved or confirmed',
  message_taken: 'a message was taken for the team to follow up',
  transferred: 'the caller was transferred to a person',
};

/** The `success_evaluation` schema per scale (docs/design.md "Resources": score_10 is an integer 1..10). */
export function successEvaluationSchema(scale: SuccessScale): JsonSchema {
  switch (scale) {
    case 'pass_fail':
      return { type: 'string', enum: ['pass', 'fail'], description: 'pass when the call met the rubric, otherwise fail.' };
    case 'score_10':
      // minimum/maximum are in the strict-mode subset; parseAnalysisOutput checks the bounds again.
      return {
        type: 'integer',
        minimum: 1,
        maximum: 10,
        description: 'How well the call met the rubric, from 1 (not at all) to 10 (fully).',
      };
    case 'descriptive':
      return { type: 'string', description: 'A short written judgement of how well the call met the rubric.' };
  }
}

/** True when an enum field has options to choose from; an enum without options is treated as free text. */
export function hasOptions(field: StructuredFieldConfig): boolean {
  return field.type === 'enum' && (field.options ?? []).length > 0;
}

/**
 * One structured field's schema: always nullable (`[type, 'null']`), because strict mode makes every
 * property required and "not said on the call" must stay expressible.
 */
export function structuredFieldSchema(config: StructuredFieldConfig): JsonSchema {
  const field = resolveField(config);
  const about = field.description.trim() === '' ? `The ${field.name} mentioned on the call.` : field.description.trim();
  const description = `${about} Null when the call does not say.`;
  switch (field.type) {
    case 'number':
      return { type: ['number', 'null'], description };
    case 'boolean':
      return { type: ['boolean', 'null'], description };
    case 'date':
      return {
        type: ['string', 'null'],
        pattern: ISO_DATE_PATTERN,
        description: `${about} ISO date YYYY-MM-DD. Null when the call does not say.`,
      };
    case 'enum':
      if (hasOptions(field)) return { type: ['string', 'null'], enum: [...new Set(field.options), null], description };
      return { type: ['string', 'null'], description };
    case 'string':
      return { type: ['string', 'null'], description };
  }
}

/** The configured fields, defaults filled, duplicate names dropped (the first one wins), in order. */
export function uniqueFields(cfg: AnalysisConfig): ResolvedField[] {
  const seen = new Set<string>();
  return cfg.structured.filter((field) => !seen.has(field.name) && seen.add(field.name)).map(resolveField);
}

function strictObject(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/**
 * The JSON Schema the analysis model must answer with, inside OpenAI's strict structured-output
 * subset: every object lists all its properties as required and forbids others, optional values
 * are `[type, 'null']`, and only subset keywords are used (`enum`, `pattern`, `minimum`/`maximum`).
 * Property order is generation order: the summary comes first so the judgement follows it.
 * `structured_data` is omitted when no fields are configured (an empty strict object has no use),
 * and `parseAnalysisOutput` (analysis.ts) then returns `{}`.
 *
 * @example
 * buildAnalysisJsonSchema({ summary_prompt: '', success_rubric: '', success_scale: 'pass_fail', structured: [] });
 */
export function buildAnalysisJsonSchema(cfg: AnalysisConfig): JsonSchema {
  const outcomes = LLM_OUTCOMES.map((outcome) => `${outcome}: ${OUTCOME_MEANINGS[outcome]}`).join('; ');
  const properties: Record<string, JsonSchema> = {
    summary: { type: 'string', description: 'The call summary, as the instructions ask.' },
    success_evaluation: successEvaluationSchema(cfg.success_scale),
    outcome: { type: 'string', enum: [...LLM_OUTCOMES], description: `How the call ended up. ${outcomes}.` },
    intent: { type: 'string', description: "The caller's main reason for calling, in a few words." },
    caller_name: { type: ['string', 'null'], description: "The caller's name if they said it, otherwise null." },
  };
  const fields = uniqueFields(cfg);
  if (fields.length > 0) {
    properties.structured_data = strictObject(Object.fromEntries(fields.map((field) => [field.name, structuredFieldSchema(field)])));
  }
  return strictObject(properties);
}

/** The chat-completions `response_format` carrying {@link buildAnalysisJsonSchema} in strict mode. */
export function buildAnalysisResponseFormat(cfg: AnalysisConfig) {
  return { type: 'json_schema' as const, json_schema: { name: ANALYSIS_SCHEMA_NAME, strict: true, schema: buildAnalysisJsonSchema(cfg) } };
}
