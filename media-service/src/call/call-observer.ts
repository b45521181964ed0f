import type { ToolAction } from '../../../shared/domain/tool-action';
import { turnMetrics, type CallCounters } from './call-metrics';
import { isFirstFrameMark, parseMark } from './frame-marker';
import type { Utterance } from './speaker';
import { heardText, playedInFull } from './transcript-log';

/**
 * What a watcher of a live call is told as it happens: a web call's browser (docs/protocols.md
 * "Web calls"). The same facts the call's record gets at its end, taken where the record takes
 * them: the transcript log, the turn timings of the metrics, the tool runner's actions.
 */
export type CallObservation =
  | { type: 'state'; state: 'listening' | 'thinking' | 'speaking' }
  /** A finished line; `interrupted` when a barge-in cut the assistant (the text is then what was heard). */
  | { type: 'transcript'; role: 'caller' | 'assistant'; text: string; final: true; interrupted?: boolean }
  /** The caller's end of speech → the assistant's first audio heard: `metrics.turns[turn − 1].latency_ms`. */
  | { type: 'latency'; turn: number; ms: number }
  /** A tool call as recorded in the call's `actions`; `result` is bounded to {@link TOOL_RESULT_MAX_CHARS} of JSON. */
  | { type: 'tool'; name: string; arguments: Record<string, unknown>; status: 'ok' | 'error'; result?: unknown };

/** Receives each observation synchronously; it must not throw (it is called from the call's own steps). */
export type CallObserver = (observation: CallObservation) => void;

/** The most JSON a `tool` observation's result carries. */
export const TOOL_RESULT_MAX_CHARS = 2048;

/** How long the assistant stays quiet before the browser is told it is the caller's turn. */
export const LISTENING_AFTER_MS = 600;

/**
 * Turns the call's own records into {@link CallObservation}s. Every session has one, since a
 * listener may join any call (`POST /calls/{id}/listen`); while `active()` is false (a phone call
 * nobody listens to) each hook returns at its first test and builds nothing.
 */
export class CallTap {
  readonly #observe: CallObserver;
  readonly #counters: CallCounters;
  readonly #active: () => boolean;
  /** Utterances begun and not yet finished. */
  #speaking = 0;
  /** The `listening` state waiting for the assistant to stay quiet (a greeting and its notice are two utterances). */
  #listening: ReturnType<typeof setTimeout> | undefined;

  constructor(observe: CallObserver, counters: CallCounters, active: () => boolean = () => true) {
    this.#observe = observe;
    this.#counters = counters;
    this.#active = active;
  }

  /** The caller's turn ended with these words: the assistant is thinking. */
  user(text: string): void {
    if (!this.#active()) return;
    this.#emit({ type: 'transcript', role: 'caller', text, final: true });
    this.#emit({ type: 'state', state: 'thinking' });
  }

  /** An assistant utterance began: once finished, its heard text, its turn's latency, and back to listening. */
  utterance(utterance: Utterance): void {
    if (!this.#active()) return;
    this.#speaking += 1;
    clearTimeout(this.#listening);
    void utterance.done.then(() => this.#finished(utterance));
  }

  /** The pacer sent a mark: the one after an utterance's first frame means its audio is on its way. */
  markSent(name: string): void {
    if (!this.#active()) return;
    if (isFirstFrameMark(parseMark(name).position)) this.#emit({ type: 'state', state: 'speaking' });
  }

  /** The tool runner recorded an action. */
  tool(action: ToolAction): void {
    if (!this.#active()) return;
    const result = action.ok ? action.result : action.error;
    const json = JSON.stringify(result ?? null);
    this.#emit({
      type: 'tool',
      name: action.name,
      arguments: action.arguments,
      status: action.ok ? 'ok' : 'error',
      ...(result !== null && { result: json.length > TOOL_RESULT_MAX_CHARS ? `${result.slice(0, TOOL_RESULT_MAX_CHARS - 40)}…` : result }),
    });
  }

  #finished(utterance: Utterance): void {
    const complete = playedInFull(utterance);
    const text = complete ? utterance.text : heardText(utterance);
    if (text !== '') this.#emit({ type: 'transcript', role: 'assistant', text, final: true, ...(!complete && { interrupted: true }) });
    const index = this.#counters.turns.findIndex((turn) => turn.utterance === utterance);
    const latency = index < 0 ? null : turnMetrics(this.#counters.turns[index]!).latency_ms;
    if (typeof latency === 'number') this.#emit({ type: 'latency', turn: index + 1, ms: latency });
    this.#speaking -= 1;
    if (this.#speaking > 0) return;
    // The caller's turn only once the assistant stays quiet: the next of its utterances (the notice
    // after a greeting, the answer after a tool's filler) starts within a few hundred ms of the last.
    clearTimeout(this.#listening);
    this.#listening = setTimeout(() => this.#emit({ type: 'state', state: 'listening' }), LISTENING_AFTER_MS);
    this.#listening.unref?.();
  }

  #emit(observation: CallObservation): void {
    try {
      this.#observe(observation);
    } catch {
      // A watcher's failure never reaches the call.
    }
  }
}
