import { describe, expect, it } from 'vitest';
import {
  OPENING_START,
  reduceOpening,
  type OpeningEffect,
  type OpeningEvent,
  type OpeningSettings,
} from '../../../../media-service/src/call/rules/opening';

const INBOUND: OpeningSettings = { mode: 'assistant_first', greetingDelayMs: 400, greetAfterSilenceMs: 0, screen: false, screenMs: 2000 };
const SCREENED: OpeningSettings = { ...INBOUND, screen: true };
const WAIT: OpeningSettings = { ...INBOUND, mode: 'wait_for_user' };
const WAIT_THEN_GREET: OpeningSettings = { ...WAIT, greetAfterSilenceMs: 5000 };

const start: OpeningEvent = { type: 'start' };
const timer: OpeningEvent = { type: 'timer' };
const speech: OpeningEvent = { type: 'speech_started' };
const person: OpeningEvent = { type: 'caller_turn', machine: false, words: 1 };
const longTurn: OpeningEvent = { type: 'caller_turn', machine: false, words: 14 };
const machine: OpeningEvent = { type: 'caller_turn', machine: true, words: 12 };
const noise: OpeningEvent = { type: 'quiet_turn' };
const amd = (verdict: 'human' | 'machine' | 'unknown'): OpeningEvent => ({ type: 'amd', verdict });

/** Runs `events` from the start; returns every effect in order, the final phase, and whether the last event was answered by the greeting. */
function run(settings: OpeningSettings, events: readonly OpeningEvent[]) {
  let state = OPENING_START;
  const effects: OpeningEffect[] = [];
  let answered = false;
  for (const event of events) {
    const step = reduceOpening(settings, state, event);
    state = step.state;
    effects.push(...step.effects);
    answered = step.answered;
  }
  return { effects, phase: state.phase, greeted: state.phase === 'over' && state.greeted, answered };
}

const GREET: OpeningEffect = { type: 'greet' };
const CANCEL: OpeningEffect = { type: 'cancel' };
const arm = (ms: number): OpeningEffect => ({ type: 'arm', ms });

describe('reduceOpening', () => {
  describe.each([
    // Inbound, assistant first: greet after the delay; a caller who finishes a turn first is answered instead.
    { name: 'inbound: greets after the delay', settings: INBOUND, events: [start, timer], effects: [arm(400), GREET], greeted: true },
    {
      name: 'inbound: a caller who speaks first is answered, never greeted',
      settings: INBOUND,
      events: [start, speech, person, timer],
      effects: [arm(400), CANCEL],
      greeted: false,
    },
    {
      name: 'inbound: a caller still mid-word when the delay ends is greeted (the greeting goes first)',
      settings: INBOUND,
      events: [start, speech, timer],
      effects: [arm(400), GREET],
      greeted: true,
    },
    // wait_for_user
    { name: 'wait_for_user: the silence clock runs', settings: WAIT, events: [start], effects: [{ type: 'listen' }], greeted: false },
    {
      name: 'wait_for_user + greet_after_silence_s: a silent caller is greeted',
      settings: WAIT_THEN_GREET,
      events: [start, timer],
      effects: [arm(5000), GREET],
      greeted: true,
    },
    {
      name: 'wait_for_user + greet_after_silence_s: a caller who speaks is answered',
      settings: WAIT_THEN_GREET,
      events: [start, speech, person],
      effects: [arm(5000), CANCEL, CANCEL],
      greeted: false,
    },
    // Outbound, screened for machines: nothing is said over a machine's greeting.
    {
      name: 'outbound × person: "Hello?" is answered by the greeting',
      settings: SCREENED,
      events: [start, speech, person],
      effects: [arm(2000), CANCEL, CANCEL, GREET],
      greeted: true,
      answered: true,
    },
    {
      name: 'outbound × machine greeting: never greeted (voicemail takes the call)',
      settings: SCREENED,
      events: [start, speech, machine, timer],
      effects: [arm(2000), CANCEL, CANCEL],
      greeted: false,
    },
    {
      name: 'outbound × a long first turn not recognised as a machine: waits for the AMD verdict',
      settings: SCREENED,
      events: [start, speech, longTurn, amd('machine')],
      effects: [arm(2000), CANCEL, arm(2000), CANCEL],
      greeted: false,
    },
    {
      name: 'outbound × a long first turn, then quiet with no verdict: greeted (its turn answered by the greeting)',
      settings: SCREENED,
      events: [start, speech, longTurn, timer],
      effects: [arm(2000), CANCEL, arm(2000), GREET],
      greeted: true,
    },
    {
      name: 'outbound × machine: the greet wait does not fire while the machine talks',
      settings: SCREENED,
      events: [start, speech, timer],
      effects: [arm(2000), CANCEL],
      greeted: false,
      phase: 'waiting',
    },
    {
      name: 'outbound × AMD machine before any words: never greeted',
      settings: SCREENED,
      events: [start, amd('machine'), timer],
      effects: [arm(2000), CANCEL],
      greeted: false,
    },
    {
      name: 'outbound × AMD human: greeted after greeting_delay_ms',
      settings: SCREENED,
      events: [start, amd('human'), timer],
      effects: [arm(2000), CANCEL, arm(400), GREET],
      greeted: true,
    },
    {
      name: 'outbound × AMD human while the person talks: their turn is answered by the greeting',
      settings: SCREENED,
      events: [start, speech, amd('human'), person],
      effects: [arm(2000), CANCEL, CANCEL, GREET],
      greeted: true,
      answered: true,
    },
    {
      name: 'outbound × AMD unknown: greeted after greeting_delay_ms',
      settings: SCREENED,
      events: [start, amd('unknown'), timer],
      effects: [arm(2000), CANCEL, arm(400), GREET],
      greeted: true,
    },
    {
      name: 'outbound × silent line: greeted after the screen wait',
      settings: SCREENED,
      events: [start, timer],
      effects: [arm(2000), GREET],
      greeted: true,
    },
    {
      name: 'outbound × a noise, not words: the wait starts again, then greets',
      settings: SCREENED,
      events: [start, speech, noise, timer],
      effects: [arm(2000), CANCEL, arm(2000), GREET],
      greeted: true,
    },
    {
      name: 'outbound × wait_for_user: still screened (a machine is never answered)',
      settings: { ...SCREENED, mode: 'wait_for_user' as const },
      events: [start, speech, machine],
      effects: [{ type: 'listen' }, CANCEL, CANCEL],
      greeted: false,
    },
    {
      name: 'outbound × wait_for_user: a person who speaks first is answered by the model, not greeted',
      settings: { ...SCREENED, mode: 'wait_for_user' as const },
      events: [start, amd('human'), speech, person],
      effects: [{ type: 'listen' }],
      greeted: false,
    },
    {
      name: 'outbound × wait_for_user + greet_after_silence_s: a silent person is greeted after it',
      settings: { ...SCREENED, mode: 'wait_for_user' as const, greetAfterSilenceMs: 5000 },
      events: [start, amd('human'), timer],
      effects: [arm(5000), GREET],
      greeted: true,
    },
    {
      name: 'over: later events change nothing',
      settings: INBOUND,
      events: [start, timer, speech, person, amd('machine'), timer],
      effects: [arm(400), GREET],
      greeted: true,
    },
  ])('$name', ({ settings, events, effects, greeted, answered = false, phase = 'over' }) => {
    it('has the expected effects and outcome', () => {
      // Act
      const result = run(settings, events);
      // Assert
      expect(result.effects).toEqual(effects);
      expect(result.phase).toBe(phase);
      expect(result.greeted).toBe(greeted);
      expect(result.answered).toBe(answered);
    });
  });

  it('never changes the state it is given', () => {
    // Arrange
    const state = { phase: 'waiting', for: 'callee', calleeTalking: false } as const;
    // Act
    reduceOpening(SCREENED, state, speech);
    // Assert
    expect(state).toEqual({ phase: 'waiting', for: 'callee', calleeTalking: false });
  });
});
