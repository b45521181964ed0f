import * as v from 'valibot';
import { CALL_DIRECTIONS } from './call';
import { idField, strictDict, timestampField } from './validation';

/**
 * The body POSTed to a custom tool's `server_url` when the model calls it (docs/api-tour.md "Custom tools"),
 * signed per Standard Webhooks with the business's webhook secret. The OpenAPI document's
 * `webhooks` entry `tool.call` is generated from it, and the call engine builds its request as this type.
 */
export const ToolCallEventSchema = strictDict({
  type: v.literal('tool.call'),
  /** When this request was sent. */
  timestamp: timestampField(),
  data: strictDict({
    tool: strictDict({ id: idField(), name: v.string() }),
    arguments: v.pipe(
      v.record(v.string(), v.unknown()),
      v.description("The model's arguments, already valid against the tool's `parameters` (invalid ones never reach the server)."),
    ),
    call: strictDict({
      id: idField(),
      assistant_id: idField(),
      direction: v.picklist(CALL_DIRECTIONS),
      from_number: v.string(),
      to_number: v.string(),
    }),
  }),
});

/** A custom tool call as its server receives it. */
export type ToolCallEvent = v.InferOutput<typeof ToolCallEventSchema>;
