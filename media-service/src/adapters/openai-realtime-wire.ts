import * as v from 'valibot';
import type { LlmToolDefinition } from '../ports/language-model';
import type { S2sEvent, S2sOpenOptions } from '../ports/speech-to-speech';

/**
 * What the OpenAI Realtime adapter (`openai-realtime.ts`) says and hears on the wire
 * (docs/protocols.md "OpenAI"): the GA `session.update` of a phone call, and the server events it
 * acts on or knowingly ignores.
 */

/** Server VAD defaults of the API (threshold 0.5, 300 ms prefix, 500 ms of silence ends a turn). */
export const LIVE_VAD = { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 } as const;

const Usage = v.optional(v.looseObject({ input_tokens: v.optional(v.number(), 0), output_tokens: v.optional(v.number(), 0) }), {});
const Item = { item_id: v.string(), response_id: v.string() };

export const ServerEventSchema = v.variant('type', [
  v.looseObject({ type: v.literal('session.updated') }),
  v.looseObject({ type: v.literal('input_audio_buffer.speech_started'), item_id: v.string(), audio_start_ms: v.number() }),
  v.looseObject({ type: v.literal('input_audio_buffer.speech_stopped'), item_id: v.string(), audio_end_ms: v.number() }),
  v.looseObject({ type: v.literal('conversation.item.input_audio_transcription.completed'), item_id: v.string(), transcript: v.string() }),
  v.looseObject({
    type: v.literal('response.created'),
    response: v.looseObject({ id: v.string(), metadata: v.optional(v.nullable(v.record(v.string(), v.string()))) }),
  }),
  v.looseObject({ type: v.literal('response.output_audio.delta'), ...Item, delta: v.string() }),
  v.looseObject({ type: v.literal('response.output_audio_transcript.delta'), ...Item, delta: v.string() }),
  v.looseObject({ type: v.literal('response.output_audio_transcript.done'), ...Item, transcript: v.string() }),
  v.looseObject({
    type: v.literal('response.function_call_arguments.done'),
    response_id: v.string(),
    call_id: v.string(),
    name: v.string(),
    arguments: v.string(),
  }),
  v.looseObject({
    type: v.literal('response.done'),
    response: v.looseObject({ id: v.string(), status: v.optional(v.string(), 'completed'), usage: v.optional(v.nullable(Usage)) }),
  }),
  v.looseObject({
    type: v.literal('error'),
    error: v.looseObject({ message: v.string(), type: v.optional(v.string()), code: v.optional(v.nullable(v.string())) }),
  }),
]);

/** Events we receive and need not act on (logging each would drown the log). */
export const IGNORED = new Set([
  'session.created',
  'input_audio_buffer.committed',
  'input_audio_buffer.cleared',
  'input_audio_buffer.timeout_triggered',
  'conversation.item.added',
  'conversation.item.done',
  'conversation.item.created',
  'conversation.item.truncated',
  'conversation.item.input_audio_transcription.delta',
  'response.output_item.added',
  'response.output_item.done',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_audio.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.function_call_arguments.delta',
  'rate_limits.updated',
]);

/** Server voice detection; `interrupt` lets the caller's speech cancel the response in progress. */
export function turnDetection(interrupt: boolean): Record<string, unknown> {
  return { ...LIVE_VAD, create_response: true, interrupt_response: interrupt };
}

/** The GA `session.update` for a phone call (docs/protocols.md "OpenAI"). */
export function sessionUpdate(o: S2sOpenOptions, model: string, transcriptionModel: string): Record<string, unknown> {
  const language = o.language.split('-')[0]!.toLowerCase();
  return {
    type: 'session.update',
    session: {
      type: 'realtime',
      model,
      instructions: o.instructions,
      output_modalities: ['audio'],
      audio: {
        input: {
          format: { type: 'audio/pcmu' },
          transcription: { model: transcriptionModel, ...(/^[a-z]{2}$/.test(language) && { language }) },
          turn_detection: turnDetection(o.interruptResponse),
        },
        output: { format: { type: 'audio/pcmu' }, voice: o.voice, speed: o.speed },
      },
      tools: realtimeTools(o.tools),
      tool_choice: 'auto',
    },
  };
}

/** Tools as a GA session takes them: flat `{type: "function", name, description, parameters}`, unlike chat's nested `function`. */
export function realtimeTools(tools: readonly LlmToolDefinition[]): Record<string, unknown>[] {
  return tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters }));
}

/** A server event the adapter acts on. */
export type RealtimeServerEvent = v.InferOutput<typeof ServerEventSchema>;

/** A response's output as the call hears it, under `responseId` (the id the call knows for it). */
export function outputEvent(
  m: Extract<
    RealtimeServerEvent,
    {
      type:
        | 'response.output_audio.delta'
        | 'response.output_audio_transcript.delta'
        | 'response.output_audio_transcript.done'
        | 'response.function_call_arguments.done';
    }
  >,
  responseId: string,
): S2sEvent {
  switch (m.type) {
    case 'response.output_audio.delta':
      return { type: 'audio', responseId, itemId: m.item_id, mulaw: Buffer.from(m.delta, 'base64') };
    case 'response.output_audio_transcript.delta':
      return { type: 'transcript_delta', responseId, itemId: m.item_id, text: m.delta };
    case 'response.output_audio_transcript.done':
      return { type: 'transcript_done', responseId, itemId: m.item_id, text: m.transcript };
    case 'response.function_call_arguments.done':
      return { type: 'function_call', responseId, callId: m.call_id, name: m.name, arguments: m.arguments };
  }
}
