import * as v from 'valibot';
import { idField, intField, openDict, readOnlyEcho, strictDict, stringField, timestampField } from './validation';
import { parseWith } from './validation-errors';
import { cursorPageSchema } from './paging';

/** A tool name the LLM can call: a function name, as OpenAI's tool API accepts it. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The built-in actions' names (the documented contract, docs/design.md "Reserved names"), built or not yet. */
export const ACTION_TOOL_NAMES = [
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

/**
 * Every name the platform offers a model: the actions, the knowledge search and a workflow's
 * `next_step`. A custom tool may take none of them, so a model never sees two tools of one name;
 * in any case (`END_CALL` would read to a model,
 * and to a person reading the call's `actions`, as the built-in).
 */
export const RESERVED_TOOL_NAMES = [...ACTION_TOOL_NAMES, 'search_knowledge', 'next_step'] as const;
const RESERVED = new Set<string>(RESERVED_TOOL_NAMES);

export const RESERVED_NAME_MESSAGE = 'this name is reserved for a built-in tool';

/** Whether a name is a platform tool's, in any case (the body schema refuses the exact names; the service the rest). */
export function isReservedToolName(name: string): boolean {
  return RESERVED.has(name.toLowerCase());
}

/** A custom tool's name: a function name that is not one of {@link RESERVED_TOOL_NAMES}. */
const customToolName = () =>
  v.pipe(
    stringField({ min: 1, max: 64, pattern: TOOL_NAME_PATTERN }),
    v.notValues([...RESERVED_TOOL_NAMES] as string[], RESERVED_NAME_MESSAGE),
  );

/** Default and bounds of a tool call's timeout, in milliseconds. */
export const TOOL_TIMEOUT_MS = { default: 10_000, min: 500, max: 30_000 } as const;

/**
 * A custom tool's reply: the bytes read from its server (the rest is dropped and the connection
 * closed) and the characters the model gets (a longer reply is cut and the model told so).
 */
export const TOOL_REPLY_LIMITS = { bytes: 16 * 1024, chars: 4000 } as const;

/** Bounds of a tool's texts and of a business's tool list (docs/design.md "Custom tools"). */
export const TOOL_LIMITS = { descriptionChars: 1000, fillerChars: 200, urlChars: 500, toolsPerBusiness: 100 } as const;

/**
 * The JSON Schema of a tool's arguments: an object schema, anything else in it kept as is. The
 * service checks it further with a real JSON Schema validator (shared/tools/tool-schema.ts).
 */
export const ToolParametersSchema = openDict({ type: v.literal('object') });

/** A business's custom tool: a function the assistant may call on the business's server (docs/design.md "Custom tools"). */
export const ToolSchema = strictDict({
  id: idField(),
  name: stringField({ pattern: TOOL_NAME_PATTERN }),
  description: v.string(),
  parameters: ToolParametersSchema,
  server_url: v.string(),
  timeout_ms: intField({ ge: TOOL_TIMEOUT_MS.min, le: TOOL_TIMEOUT_MS.max }),
  filler: v.pipe(
    v.nullable(v.string()),
    v.metadata({ description: 'Said when the tool takes longer than about a second; null: the standard line.' }),
  ),
  created_at: timestampField(),
  updated_at: timestampField(),
});

/** A tool as the API returns it. */
export type Tool = v.InferOutput<typeof ToolSchema>;

/** GET /tools: newest first (docs/design.md "Response shapes"). */
export const ToolListSchema = cursorPageSchema(ToolSchema);

/** DELETE /tools/{id}. */
export const DeleteToolResultSchema = strictDict({ id: idField(), deleted: v.literal(true) });

const defaultParameters = () => ({ type: 'object' as const, properties: {} });

const toolFields = {
  name: customToolName(),
  description: stringField({ min: 1, max: TOOL_LIMITS.descriptionChars, lines: true }),
  parameters: ToolParametersSchema,
  server_url: stringField({ min: 1, max: TOOL_LIMITS.urlChars }),
  timeout_ms: intField({ ge: TOOL_TIMEOUT_MS.min, le: TOOL_TIMEOUT_MS.max }),
  filler: v.nullable(stringField({ min: 1, max: TOOL_LIMITS.fillerChars })),
};

/** Read-only fields a client may send back from a GET: accepted and ignored. */
const echoed = { id: readOnlyEcho(), created_at: readOnlyEcho(), updated_at: readOnlyEcho() };

/** POST /tools (and the ops `add-tool`): the URL's SSRF check and the schema's deep check follow in the service. */
export const CreateToolBodySchema = strictDict({
  ...echoed,
  name: toolFields.name,
  description: toolFields.description,
  // A function, so no two tools share (and could mutate) one default object.
  parameters: v.optional(toolFields.parameters, defaultParameters),
  server_url: toolFields.server_url,
  timeout_ms: v.optional(toolFields.timeout_ms, TOOL_TIMEOUT_MS.default),
  filler: v.optional(toolFields.filler, null),
});

/** PATCH /tools/{id}: the fields given replace theirs; the others stay. */
export const UpdateToolBodySchema = strictDict({
  ...echoed,
  name: v.optional(toolFields.name),
  description: v.optional(toolFields.description),
  parameters: v.optional(toolFields.parameters),
  server_url: v.optional(toolFields.server_url),
  timeout_ms: v.optional(toolFields.timeout_ms),
  filler: v.optional(toolFields.filler),
});

/** A validated POST /tools body with its defaults. */
export type CreateToolInput = Omit<v.InferOutput<typeof CreateToolBodySchema>, keyof typeof echoed>;

/** A validated PATCH /tools/{id} body. */
export type UpdateToolInput = Omit<v.InferOutput<typeof UpdateToolBodySchema>, keyof typeof echoed>;

function withoutEchoed<T extends Record<string, unknown>>(input: T): Omit<T, keyof typeof echoed> {
  const { id: _id, created_at: _created, updated_at: _updated, ...rest } = input;
  return rest;
}

/** Validates a POST /tools body; 422 items under `loc` (`['body']` from the API, `[]` from the CLI). */
export function parseCreateToolBody(input: unknown, loc: (string | number)[] = ['body']): CreateToolInput {
  return withoutEchoed(parseWith(CreateToolBodySchema, input, loc));
}

/** Validates a PATCH /tools/{id} body. */
export function parseUpdateToolBody(input: unknown, loc: (string | number)[] = ['body']): UpdateToolInput {
  const parsed = withoutEchoed(parseWith(UpdateToolBodySchema, input, loc));
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined)) as UpdateToolInput;
}

/**
 * A stored tool as the API shows it: records written before `filler` and `updated_at` existed
 * (ops' first `add-tool`) read with no filler and their creation time.
 */
export function toToolView(record: Omit<Tool, 'filler' | 'updated_at'> & Partial<Pick<Tool, 'filler' | 'updated_at'>>): Tool {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    parameters: record.parameters,
    server_url: record.server_url,
    timeout_ms: record.timeout_ms,
    filler: record.filler ?? null,
    created_at: record.created_at,
    updated_at: record.updated_at ?? record.created_at,
  };
}
