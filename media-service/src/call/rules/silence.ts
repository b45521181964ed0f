/**
 * The silence clock and the idle messages, as a pure reducer: when nobody speaks or thinks for
 * `silence_timeout_s`, the next idle message is said (at most `idle_max` in a row, in turn); once
 * they are spent the call ends `silence_timeout`. Caller words start the messages over. The clock
 * never runs out on a caller mid-turn or a reply in flight: the conversation says whether someone
 * is busy with each event, and a timer that fires while someone is busy does nothing (the next
 * quiet starts the clock again).
 */

export interface SilenceSettings {
  /** `silence_timeout_s` in ms. */
  timeoutMs: number;
  /** The script's idle messages (empty: none). */
  messages: readonly string[];
  /** `idle_max`. */
  max: number;
}

export interface SilenceState {
  /** The clock is running. */
  armed: boolean;
  /** Idle messages said since the caller last spoke. */
  said: number;
}

/**
 * `quiet`: nobody is talking or thinking now (start the clock, unless `busy`); `activity`: someone
 * started (stop it); `caller_spoke`: words from the caller (the messages start over); `timer`: the
 * clock ran out (`busy` if someone is talking or thinking all the same); `ending`: the call ends.
 */
export type SilenceEvent =
  | { type: 'quiet'; busy: boolean }
  | { type: 'activity' }
  | { type: 'caller_spoke' }
  | { type: 'timer'; busy: boolean }
  | { type: 'ending' };

export type SilenceEffect =
  { type: 'arm'; ms: number } | { type: 'cancel' } | { type: 'idle'; text: string } | { type: 'end'; reason: 'silence_timeout' };

export interface SilenceStep {
  state: SilenceState;
  effects: SilenceEffect[];
}

export const SILENCE_START: SilenceState = { armed: false, said: 0 };

/** The silence clock's next state and effects for `event`. */
export function reduceSilence(settings: SilenceSettings, state: SilenceState, event: SilenceEvent): SilenceStep {
  switch (event.type) {
    case 'quiet':
      if (event.busy) return stopped(state);
      return { state: { ...state, armed: true }, effects: [{ type: 'cancel' }, { type: 'arm', ms: settings.timeoutMs }] };
    case 'activity':
    case 'ending':
      return stopped(state);
    case 'caller_spoke':
      return { state: { ...state, said: 0 }, effects: [] };
    case 'timer':
      if (!state.armed) return { state, effects: [] };
      if (event.busy) return { state: { ...state, armed: false }, effects: [] };
      return ranOut(settings, state);
  }
}

function stopped(state: SilenceState): SilenceStep {
  return { state: { ...state, armed: false }, effects: [{ type: 'cancel' }] };
}

function ranOut(settings: SilenceSettings, state: SilenceState): SilenceStep {
  if (state.said >= settings.max || settings.messages.length === 0) {
    return { state: { ...state, armed: false }, effects: [{ type: 'end', reason: 'silence_timeout' }] };
  }
  const text = settings.messages[state.said % settings.messages.length]!;
  return { state: { armed: false, said: state.said + 1 }, effects: [{ type: 'idle', text }] };
}
