import * as v from 'valibot';
import { AssistantConfigSchema, AssistantConfigViewSchema, completeAssistantConfig, type AssistantConfig } from './assistant-config';
import { TEMPLATE_NAMES, type TemplateName } from './templates';
import { MAX_LIST_OFFSET, nextCursorField, offsetWithCursorItems, pageQueryFields, parseListQuery } from './paging';
import { idField, intField, readOnlyEcho, strictDict, stringField, timestampField } from './validation';
import { parseWith } from './validation-errors';

export { TEMPLATE_NAMES, type TemplateName } from './templates';

/** Assistant fields a client reads and may send back unchanged; accepted and ignored (docs/design.md "Errors"). */
const READ_ONLY_ECHOES = {
  id: readOnlyEcho(),
  is_default: readOnlyEcho(),
  created_at: readOnlyEcho(),
  updated_at: readOnlyEcho(),
};

/** POST /assistants body (spec): a `config` given in full overrides the template. */
export const CreateAssistantBodySchema = strictDict({
  name: v.optional(stringField({ max: 120 }), ''),
  template: v.optional(v.picklist(TEMPLATE_NAMES), 'receptionist'),
  config: v.optional(v.nullable(AssistantConfigSchema), null),
  ...READ_ONLY_ECHOES,
});

/** PATCH /assistants/{id} body (spec): `config` replaces the whole configuration. */
export const UpdateAssistantBodySchema = strictDict({
  name: v.optional(stringField({ min: 1, max: 120 })),
  config: v.optional(AssistantConfigSchema),
  ...READ_ONLY_ECHOES,
});

/** The Assistant resource as the API returns it (spec Assistant; timestamps per docs/design.md "Response shapes"). */
export const AssistantSchema = strictDict({
  id: idField(),
  name: stringField({ max: 120 }),
  is_default: v.boolean(),
  created_at: timestampField(),
  updated_at: timestampField(),
  config: AssistantConfigViewSchema,
});

/** An assistant as the API returns it; `config.model.custom_key_set` replaces the key. */
export type Assistant = v.InferOutput<typeof AssistantSchema>;

/** The default and the largest GET /assistants `limit`: a client that sends none gets them all, up to 200. */
export const MAX_ASSISTANTS_PAGE = 200;

/** GET /assistants query parameters, as numbers once their strings are parsed (docs/decisions.md "Assistants"). */
export const ListAssistantsQuerySchema = v.object(pageQueryFields(MAX_ASSISTANTS_PAGE, MAX_ASSISTANTS_PAGE));

/** A validated GET /assistants query. */
export type ListAssistantsQuery = v.InferOutput<typeof ListAssistantsQuerySchema>;

/** Parses GET /assistants query strings (422 items at `['query', name]`, unknown parameters included). */
export function parseListAssistantsQuery(query: Record<string, string | undefined>): ListAssistantsQuery {
  return parseListQuery(ListAssistantsQuerySchema, new Set(['limit', 'offset']), query, (values) => offsetWithCursorItems(values, query));
}

/**
 * GET /assistants: one page of the business's assistants, newest first (docs/design.md "Response shapes"). A page
 * ends early, `has_more` true, when the next assistant would take it past the byte budget (`MAX_PAGE_BYTES`).
 */
export const AssistantListSchema = strictDict({
  data: v.array(AssistantSchema),
  limit: intField({ ge: 1, le: MAX_ASSISTANTS_PAGE }),
  offset: intField({ ge: 0, le: MAX_LIST_OFFSET }),
  has_more: v.boolean(),
  next_cursor: nextCursorField(),
});

/** A page of assistants as GET /assistants returns it. */
export type AssistantList = v.InferOutput<typeof AssistantListSchema>;

/** DELETE /assistants/{id} result (docs/design.md "Response shapes"). */
export const DeleteAssistantResultSchema = strictDict({ id: idField(), deleted: v.literal(true) });

/** A validated POST /assistants body, the custom key split out of the config. */
export interface CreateAssistantInput {
  name: string;
  template: TemplateName;
  config: AssistantConfig | null;
  customKey?: string;
}

/** A validated PATCH body: only what was sent. */
export interface UpdateAssistantInput {
  name?: string;
  config?: AssistantConfig;
  customKey?: string;
}

/**
 * `{config, customKey?}` from a parsed config (`sent`: the config as the client sent it), with the
 * speech defaults and checks and the size limit applied; `customKey` left out when none was sent.
 */
function configParts(parsed: v.InferOutput<typeof AssistantConfigSchema>, sent: unknown): { config: AssistantConfig; customKey?: string } {
  const { config, customKey } = completeAssistantConfig(parsed, sent, ['body', 'config']);
  return customKey === undefined ? { config } : { config, customKey };
}

/**
 * Validates a POST /assistants body (422 items under `body`), fills the defaults and splits
 * the write-only custom key out; read-only fields sent back are dropped.
 */
export function parseCreateAssistantBody(input: unknown): CreateAssistantInput {
  const body = parseWith(CreateAssistantBodySchema, input, ['body']);
  const base = { name: body.name, template: body.template };
  return body.config === null ? { ...base, config: null } : { ...base, ...configParts(body.config, sentConfig(input)) };
}

/**
 * Validates a PATCH /assistants/{id} body (422 items under `body`). A name-only update carries
 * no config, so the stored configuration is left as it is (spec rule).
 */
export function parseUpdateAssistantBody(input: unknown): UpdateAssistantInput {
  const body = parseWith(UpdateAssistantBodySchema, input, ['body']);
  const result: UpdateAssistantInput = body.name === undefined ? {} : { name: body.name };
  return body.config === undefined ? result : { ...result, ...configParts(body.config, sentConfig(input)) };
}

/** The `config` of a body as sent (the schema already checked it is an object). */
function sentConfig(input: unknown): unknown {
  return (input as { config?: unknown }).config;
}
