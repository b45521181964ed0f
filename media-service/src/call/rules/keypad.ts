/**
 * Keypad entry (`keypad` on), as a pure reducer: digits are gathered until `#` or a pause of
 * `idleMs`, then handed over as one caller message, `[keypad] 1 2 3 4 #`, the way people type an
 * account number. An entry made while the assistant is audible cuts it off first (unless
 * `interruptions` is `never`); keys are ignored while the call ends or a machine is on the line.
 */

export interface KeypadSettings {
  /** `keypad` on. */
  enabled: boolean;
  /** A pause this long ends the entry. */
  idleMs: number;
  /** `interruptions: never`: an entry waits for the assistant to finish. */
  neverInterrupt: boolean;
}

/**
 * `press`: one key (`closed`: the call is ending or a machine is on the line); `pause`: the pause
 * timer ran out. `audible`: assistant audio is queued or playing now.
 */
export type KeypadEvent = { type: 'press'; digit: string; closed: boolean; audible: boolean } | { type: 'pause'; audible: boolean };

/** `arm`/`cancel`: the pause timer; `quiet`: keys stop the silence clock; `barge_in`: cut the assistant off; `entered`: the caller's message. */
export type KeypadEffect =
  { type: 'arm'; ms: number } | { type: 'cancel' } | { type: 'quiet' } | { type: 'barge_in' } | { type: 'entered'; text: string };

export interface KeypadStep {
  digits: string;
  effects: KeypadEffect[];
}

/** The keypad's digits so far and effects for `event`. */
export function reduceKeypad(settings: KeypadSettings, digits: string, event: KeypadEvent): KeypadStep {
  if (event.type === 'pause') return flush(settings, digits, event.audible);
  if (!settings.enabled || event.closed) return { digits, effects: [] };
  const typed = digits + event.digit;
  if (event.digit === '#') {
    const step = flush(settings, typed, event.audible);
    return { digits: step.digits, effects: [{ type: 'quiet' }, ...step.effects] };
  }
  return { digits: typed, effects: [{ type: 'quiet' }, { type: 'arm', ms: settings.idleMs }] };
}

function flush(settings: KeypadSettings, digits: string, audible: boolean): KeypadStep {
  if (digits === '') return { digits, effects: [{ type: 'cancel' }] };
  const text = `[keypad] ${digits.split('').join(' ')}`;
  const cut: KeypadEffect[] = audible && !settings.neverInterrupt ? [{ type: 'barge_in' }] : [];
  return { digits: '', effects: [{ type: 'cancel' }, ...cut, { type: 'entered', text }] };
}
