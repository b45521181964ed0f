import * as v from 'valibot';
import { idField, intField, openDict, parseWith, strictDict, stringField, timestampField } from './validation';

/** A tool name the LLM can call: a function name, as OpenAI's tool API accepts it. */
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * Names the platform's built-in tools use (the documented contract, docs/design.md §7), built or
 * not yet: a custom tool may not take one, so a model never sees two tools of one name.
 */
export const RESERVED_TOOL_NAMES = [
  'end_call',
  'transfer',
  'take_message',
  'notify_team',
  'check_availability',
  'book_appointment',
  'find_appointments',
  'cancel_appointment',
  'reschedule_appointment',
  'send_sms',
  'send_payment_link',
  'email_caller',
] as const;

/** A custom tool's name: a function name that is not one of {@link RESERVED_TOOL_NAMES}. */
const customToolName = () =>
  v.pipe(
    stringField({ pattern: TOOL_NAME_PATTERN }),
    v.check((name) => !(RESERVED_TOOL_NAMES as readonly string[]).includes(name), 'This name is reserved for a built-in tool'),
  );

/** Default and bounds of a tool call's timeout, in milliseconds. */
export const TOOL_TIMEOUT_MS = { default: 10_000, min: 500, max: 30_000 } as const;

/** The JSON Schema of a tool's arguments: an object schema, anything else in it kept as is. */
export const ToolParametersSchema = openDict({ type: v.literal('object') });

/** A business's custom tool: a function the assistant may call on the business's server (docs/design.md §4). */
export const ToolSchema = strictDict({
  id: idField(),
  name: stringField({ pattern: TOOL_NAME_PATTERN }),
  description: v.string(),
  parameters: ToolParametersSchema,
  server_url: v.string(),
  timeout_ms: intField({ ge: TOOL_TIMEOUT_MS.min, le: TOOL_TIMEOUT_MS.max }),
  created_at: timestampField(),
});

/** A tool as the API returns it. */
export type Tool = v.InferOutput<typeof ToolSchema>;

/** GET /tools: newest first (docs/design.md §4). */
export const ToolListSchema = strictDict({ data: v.array(ToolSchema) });

/** The ops `add-tool` input; the URL's SSRF check happens in the service, after this. */
export const AddToolInputSchema = strictDict({
  name: customToolName(),
  description: v.optional(stringField({ max: 1000 }), ''),
  // A function, so no two tools share (and could mutate) one default object.
  parameters: v.optional(ToolParametersSchema, () => ({ type: 'object' as const, properties: {} })),
  server_url: stringField({ max: 500 }),
  timeout_ms: v.optional(intField({ ge: TOOL_TIMEOUT_MS.min, le: TOOL_TIMEOUT_MS.max }), TOOL_TIMEOUT_MS.default),
});

/** A validated `add-tool` input with its defaults. */
export type AddToolInput = v.InferOutput<typeof AddToolInputSchema>;

/** Validates an `add-tool` input; 422-style items under `loc` (the CLI prints them). */
export function parseAddToolInput(input: unknown, loc: (string | number)[] = []): AddToolInput {
  return parseWith(AddToolInputSchema, input, loc);
}
