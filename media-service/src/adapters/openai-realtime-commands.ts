import type { LlmToolDefinition } from '../ports/language-model';
import type { S2sSession } from '../ports/speech-to-speech';
import { realtimeTools, turnDetection } from './openai-realtime-wire';

/**
 * The commands of a live session as OpenAI Realtime client events (docs/protocols.md "OpenAI"),
 * each handed to `send`, which the session (`openai-realtime.ts`) implements: it sends, buffers
 * until the socket is open, and remembers what a replacing socket must be given.
 */
export abstract class RealtimeCommands implements Omit<S2sSession, 'appendAudio' | 'close' | 'on'> {
  /** Sends one client event. */
  abstract send(message: Record<string, unknown>): void;

  createResponse(options: { instructions?: string; tag?: string } = {}): void {
    const response = {
      ...(options.instructions !== undefined && { instructions: options.instructions }),
      ...(options.tag !== undefined && { metadata: { tag: options.tag } }),
    };
    this.send({ type: 'response.create', ...(Object.keys(response).length > 0 && { response }) });
  }

  cancelResponse(): void {
    this.send({ type: 'response.cancel' });
  }

  setInterruptResponse(interrupt: boolean): void {
    this.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { turn_detection: turnDetection(interrupt) } } } });
  }

  /** A partial `session.update`: only the keys sent change (audio and turn detection stay). */
  steer(steering: { instructions: string; tools: readonly LlmToolDefinition[] }): void {
    this.send({
      type: 'session.update',
      session: { type: 'realtime', instructions: steering.instructions, tools: realtimeTools(steering.tools), tool_choice: 'auto' },
    });
  }

  truncate(itemId: string, audioEndMs: number): void {
    this.send({ type: 'conversation.item.truncate', item_id: itemId, content_index: 0, audio_end_ms: Math.max(0, Math.floor(audioEndMs)) });
  }

  sendUserText(text: string): void {
    this.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
  }

  sendFunctionCall(call: { callId: string; name: string; arguments: string }): void {
    this.send({
      type: 'conversation.item.create',
      item: { type: 'function_call', call_id: call.callId, name: call.name, arguments: call.arguments },
    });
  }

  sendFunctionOutput(callId: string, output: string, respond: boolean): void {
    this.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: callId, output } });
    if (respond) this.createResponse();
  }
}
