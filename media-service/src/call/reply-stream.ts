import type { LlmStream, LlmToolCall } from '../ports/language-model';
import { SentenceChunker } from '../text/chunker';
import type { CallCounters } from './call-metrics';
import type { SessionTimers } from './session-types';
import type { Speaker, Utterance } from './speaker';

/** What streaming one reply needs. */
export interface ReplyStreamDeps {
  speaker: Speaker;
  counters: CallCounters;
  timers: SessionTimers;
  /** Speak a filler when the first words are this late (undefined: no fillers). */
  fillerAfterMs: number | undefined;
  /** The fillers, in the assistant's language: short, neutral, and never in the model's history (docs/protocols.md "Lessons from open-source voice pipelines"). */
  fillers: readonly string[];
  /** Says a filler now (the conversation logs it in the transcript). */
  sayFiller: (text: string) => void;
}

/** The outcome of streaming a reply: its tool calls, or why there are none. */
export type ReplyResult = { kind: 'done'; toolCalls: LlmToolCall[] } | { kind: 'cancelled' } | { kind: 'failed'; error: Error };

/**
 * Streams a model reply into `utterance` clause by clause (the chunker cuts at sentence or
 * clause ends, so the voice starts after a few words), collects tool calls and token usage, and
 * says a filler if the first words are slow. Never throws.
 */
export async function streamReply(
  deps: ReplyStreamDeps,
  stream: LlmStream,
  utterance: Utterance,
  signal: AbortSignal,
): Promise<ReplyResult> {
  const chunker = new SentenceChunker();
  const toolCalls: LlmToolCall[] = [];
  const filler =
    deps.fillerAfterMs === undefined ? undefined : deps.timers.setTimeout(() => fillIn(deps, utterance, signal), deps.fillerAfterMs);
  try {
    for await (const chunk of stream) {
      if (signal.aborted) return { kind: 'cancelled' };
      if (chunk.type === 'text') for (const piece of chunker.push(chunk.text)) deps.speaker.push(utterance, piece);
      else if (chunk.type === 'tool_call') toolCalls.push(chunk.call);
      else if (chunk.type === 'usage') {
        deps.counters.llmInput += chunk.input;
        deps.counters.llmOutput += chunk.output;
      }
    }
  } catch (error) {
    return signal.aborted ? { kind: 'cancelled' } : { kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
  } finally {
    if (filler !== undefined) deps.timers.clearTimeout(filler);
  }
  if (signal.aborted) return { kind: 'cancelled' };
  for (const piece of chunker.flush()) deps.speaker.push(utterance, piece);
  return { kind: 'done', toolCalls };
}

function fillIn(deps: ReplyStreamDeps, reply: Utterance, signal: AbortSignal): void {
  if (signal.aborted || reply.requestedAt !== undefined || deps.speaker.audible) return;
  const text = deps.fillers[deps.counters.fillers % deps.fillers.length]!;
  deps.counters.fillers++;
  deps.sayFiller(text);
}
