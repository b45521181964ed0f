import type { ProviderError } from '../../../shared/errors';
import type { LlmToolDefinition } from './language-model';
import type { FaultListener } from './provider-faults';

/**
 * Speech-to-speech for live mode (docs/design.md "Live mode"): the caller's μ-law goes in, the provider detects
 * turns itself, and the assistant's μ-law comes out with its transcript. Plain TS so the call
 * engine never sees a vendor type (OpenAI Realtime today).
 */

/** Options of one session (one per call). */
export interface S2sOpenOptions {
  /** The call script's system prompt. */
  instructions: string;
  /** Provider voice (`live_voice`, e.g. `marin`). */
  voice: string;
  tools: readonly LlmToolDefinition[];
  /** The assistant's language (`en`, `es-MX`…), for the caller-side transcription. */
  language: string;
  /** Speaking rate (1.0 normal). */
  speed: number;
  /** Whether the caller's speech cancels the response being generated (false for `interruptions: never`). */
  interruptResponse: boolean;
  /** Identifies the call to a sandbox provider (the carrier's call SID); real providers never see it. */
  tag?: string;
  /** Aborting closes the session (as `close()` does). */
  signal: AbortSignal;
  /** Hears the faults the session survived (a reconnect), for the call's log and metrics. */
  onFault?: FaultListener;
}

/** Token usage of one response. */
export interface S2sUsage {
  input: number;
  output: number;
}

/** Events of a session, in receipt order. */
export type S2sEvent =
  /** The provider applied our session configuration. */
  | { type: 'ready' }
  /** The provider's voice detector heard the caller start (`audioStartMs`: input audio time). */
  | { type: 'speech_started'; itemId: string; audioStartMs: number }
  | { type: 'speech_stopped'; itemId: string; audioEndMs: number }
  /** What the caller said in item `itemId` (arrives after `speech_stopped`). */
  | { type: 'caller_transcript'; itemId: string; text: string }
  /** A response started; `tag` echoes the one given to `createResponse` (undefined for replies the provider started). */
  | { type: 'response_created'; responseId: string; tag?: string }
  /** Assistant μ-law for output item `itemId`. */
  | { type: 'audio'; responseId: string; itemId: string; mulaw: Uint8Array }
  | { type: 'transcript_delta'; responseId: string; itemId: string; text: string }
  | { type: 'transcript_done'; responseId: string; itemId: string; text: string }
  | { type: 'function_call'; responseId: string; callId: string; name: string; arguments: string }
  /** The response ended (`completed`, `cancelled`, `failed`, `incomplete`). */
  | { type: 'response_done'; responseId: string; status: string; usage: S2sUsage }
  /** `fatal` errors end the session (`closed` follows); others are the provider refusing one command. */
  | { type: 'error'; error: ProviderError; fatal: boolean }
  /** Terminal; nothing follows. */
  | { type: 'closed' };

/** Receives every event synchronously, in order. */
export type S2sListener = (event: S2sEvent) => void;

/**
 * An open session. Returned at once; commands are buffered until the connection is up, and a
 * failed connection arrives as a fatal `error`.
 */
export interface S2sSession {
  /** Caller μ-law, forwarded as received. */
  appendAudio(mulaw: Uint8Array): void;
  /** Asks for a response now; `instructions` replace the session's for this response only; `tag` is echoed. */
  createResponse(options?: { instructions?: string; tag?: string }): void;
  /** Stops the response being generated, if any. */
  cancelResponse(): void;
  /** Whether the caller's speech now cancels the response being generated (the provider's own barge-in). */
  setInterruptResponse(interrupt: boolean): void;
  /**
   * Replaces the session's instructions and tools for the responses that follow, the ones the
   * provider starts on its own included (a workflow entering a node).
   */
  steer(steering: { instructions: string; tools: readonly LlmToolDefinition[] }): void;
  /** Cuts assistant item `itemId` to what the caller heard, so the model remembers only that. */
  truncate(itemId: string, audioEndMs: number): void;
  /** Adds a caller message that was typed, not spoken (keypad digits); ask for a response separately. */
  sendUserText(text: string): void;
  /** Adds a function call the engine made itself (a workflow's transfer), so that an output may answer it. */
  sendFunctionCall(call: { callId: string; name: string; arguments: string }): void;
  /** Answers a function call; `respond` asks for a response to it right away. */
  sendFunctionOutput(callId: string, output: string, respond: boolean): void;
  /** Closes the connection; `closed` follows. Idempotent. */
  close(): void;
  /** Subscribes; the first subscriber also receives the events raised before it. Returns the unsubscribe. */
  on(listener: S2sListener): () => void;
}

/** Opens speech-to-speech sessions. */
export interface SpeechToSpeech {
  /** Starts connecting and returns the session immediately (see {@link S2sSession}). */
  open(options: S2sOpenOptions): S2sSession;
}
