/**
 * How a call opens, as a pure reducer: `reduceOpening(state, event) → { state, effects }`, with no
 * timers, clocks or I/O inside. Each conversation kind feeds it the call's events and carries out
 * its effects (docs/design.md "How a call opens").
 *
 * - `assistant_first` and `model_generated`: greet after `greeting_delay_ms`.
 * - `wait_for_user`: the caller speaks first; after `greet_after_silence_s` of nothing (when set)
 *   the assistant greets, else the silence clock runs.
 * - An outbound call with `voicemail_detection` screens first, whatever the mode: the assistant says
 *   nothing until the callee has spoken a turn that does not sound like a machine, or the carrier
 *   says a person answered, or nobody has said anything for `screenMs`. A machine's greeting is
 *   never talked over; voicemail handling takes the call instead.
 */

/** The settings that decide the opening (from the assistant's config and the call's direction). */
export interface OpeningSettings {
  mode: 'assistant_first' | 'wait_for_user' | 'model_generated';
  greetingDelayMs: number;
  /** `greet_after_silence_s` in ms; 0 when off. */
  greetAfterSilenceMs: number;
  /** Outbound with `voicemail_detection`: listen for a machine before saying anything. */
  screen: boolean;
  /** Screening: how long a silent line is waited for before greeting. */
  screenMs: number;
}

/** Where the opening is: waiting (and for what), or over. */
export type OpeningState =
  { phase: 'waiting'; for: 'delay' | 'callee' | 'caller'; calleeTalking: boolean } | { phase: 'over'; greeted: boolean };

/**
 * What the opening hears. `caller_turn` is a turn with words (`machine` when they sound like an
 * answering machine; `words`, how many); `quiet_turn` a turn that ended without words (a cough, line noise).
 */
export type OpeningEvent =
  | { type: 'start' }
  | { type: 'timer' }
  | { type: 'speech_started' }
  | { type: 'caller_turn'; machine: boolean; words: number }
  | { type: 'quiet_turn' }
  | { type: 'amd'; verdict: 'human' | 'machine' | 'unknown' };

/**
 * What the conversation does. `greet`: say the greeting now (with any notice due); `listen`: start
 * the silence clock; `arm`/`cancel`: the opening's one timer (`greet`).
 */
export type OpeningEffect = { type: 'arm'; ms: number } | { type: 'cancel' } | { type: 'greet' } | { type: 'listen' };

/** One step of the reducer. */
export interface OpeningStep {
  state: OpeningState;
  effects: OpeningEffect[];
  /** The event was a caller turn the opening takes: the greeting is (or will be) its answer, so the model must not answer it. */
  answered: boolean;
}

/**
 * A person picking up says a few words ("Hello?", "Hi, this is Sam speaking."); a longer first turn
 * that did not sound like a machine is left to the AMD verdict or the quiet after it.
 */
export const SHORT_ANSWER_WORDS = 6;

/** Before `start`. */
export const OPENING_START: OpeningState = { phase: 'waiting', for: 'delay', calleeTalking: false };

const over = (greeted: boolean, effects: OpeningEffect[], answered = false): OpeningStep => ({
  state: { phase: 'over', greeted },
  effects,
  answered,
});

/** The opening's next state and effects for `event`. */
export function reduceOpening(settings: OpeningSettings, state: OpeningState, event: OpeningEvent): OpeningStep {
  if (state.phase === 'over') return { state, effects: [], answered: false };
  if (event.type === 'start') return opened(settings);
  switch (state.for) {
    case 'callee':
      return screening(settings, state, event);
    case 'caller':
      return waitingForCaller(state, event);
    case 'delay':
      return waitingToGreet(state, event);
  }
}

function opened(settings: OpeningSettings): OpeningStep {
  const waiting = (kind: 'delay' | 'callee' | 'caller', effects: OpeningEffect[]): OpeningStep => ({
    state: { phase: 'waiting', for: kind, calleeTalking: false },
    effects,
    answered: false,
  });
  if (settings.screen) {
    const quiet = silentLineMs(settings);
    return waiting('callee', quiet > 0 ? [{ type: 'arm', ms: quiet }] : [{ type: 'listen' }]);
  }
  if (settings.mode !== 'wait_for_user') return waiting('delay', [{ type: 'arm', ms: settings.greetingDelayMs }]);
  if (settings.greetAfterSilenceMs > 0) return waiting('caller', [{ type: 'arm', ms: settings.greetAfterSilenceMs }]);
  return over(false, [{ type: 'listen' }]);
}

/**
 * While screening, how long a silent line is waited for before the greeting: `screenMs`; with
 * `wait_for_user`, `greet_after_silence_s` (0: never; the caller speaks first).
 */
function silentLineMs(settings: OpeningSettings): number {
  return settings.mode === 'wait_for_user' ? settings.greetAfterSilenceMs : settings.screenMs;
}

/** What a person on the line gets once screening is over: the greeting after the delay, or (`wait_for_user`) the wait for their words. */
function personFound(settings: OpeningSettings): OpeningStep {
  if (settings.mode !== 'wait_for_user') {
    return {
      state: { phase: 'waiting', for: 'delay', calleeTalking: false },
      effects: [{ type: 'cancel' }, { type: 'arm', ms: settings.greetingDelayMs }],
      answered: false,
    };
  }
  // The silence timer (greet_after_silence_s), if any, keeps running.
  if (settings.greetAfterSilenceMs > 0)
    return { state: { phase: 'waiting', for: 'caller', calleeTalking: false }, effects: [], answered: false };
  return over(false, []);
}

/** Outbound, listening for a machine: greet a person, leave a machine to voicemail handling. */
function screening(settings: OpeningSettings, state: Extract<OpeningState, { phase: 'waiting' }>, event: OpeningEvent): OpeningStep {
  switch (event.type) {
    case 'speech_started':
      return { state: { ...state, calleeTalking: true }, effects: [{ type: 'cancel' }], answered: false };
    case 'caller_turn':
      if (event.machine) return over(false, [{ type: 'cancel' }]);
      // wait_for_user: a person spoke first, and the model answers them.
      if (settings.mode === 'wait_for_user') return over(false, [{ type: 'cancel' }]);
      if (event.words <= SHORT_ANSWER_WORDS) return over(true, [{ type: 'cancel' }, { type: 'greet' }], true);
      // Long words that did not sound like a machine: still nothing said, and the turn waits for the greeting.
      return { state: { ...state, calleeTalking: false }, effects: rearm(settings), answered: true };
    case 'amd':
      if (event.verdict === 'machine') return over(false, [{ type: 'cancel' }]);
      // A person mid-word: their turn's end decides. Otherwise greeted after greeting_delay_ms.
      return state.calleeTalking ? { state, effects: [], answered: false } : personFound(settings);
    case 'timer':
      return state.calleeTalking ? { state, effects: [], answered: false } : over(true, [{ type: 'greet' }]);
    case 'quiet_turn':
      // Noise, not words: the wait for a silent line starts again.
      return { state: { ...state, calleeTalking: false }, effects: rearm(settings), answered: false };
    default:
      return { state, effects: [], answered: false };
  }
}

function rearm(settings: OpeningSettings): OpeningEffect[] {
  const quiet = silentLineMs(settings);
  return quiet > 0 ? [{ type: 'arm', ms: quiet }] : [];
}

/** `wait_for_user` with `greet_after_silence_s`: a caller who speaks is answered; a silent one greeted. */
function waitingForCaller(state: Extract<OpeningState, { phase: 'waiting' }>, event: OpeningEvent): OpeningStep {
  switch (event.type) {
    case 'speech_started':
      return { state: { ...state, calleeTalking: true }, effects: [{ type: 'cancel' }], answered: false };
    case 'caller_turn':
      return over(false, [{ type: 'cancel' }]);
    case 'timer':
      return over(true, [{ type: 'greet' }]);
    default:
      return { state, effects: [], answered: false };
  }
}

/** Greeting after `greeting_delay_ms`; a caller who finishes a turn with words first is answered instead. */
function waitingToGreet(state: Extract<OpeningState, { phase: 'waiting' }>, event: OpeningEvent): OpeningStep {
  switch (event.type) {
    case 'caller_turn':
      return over(false, [{ type: 'cancel' }]);
    case 'timer':
      return over(true, [{ type: 'greet' }]);
    default:
      return { state, effects: [], answered: false };
  }
}
