import { describe, expect, it } from 'vitest';
import {
  reduceSilence,
  SILENCE_START,
  type SilenceEffect,
  type SilenceEvent,
  type SilenceSettings,
} from '../../../../media-service/src/call/rules/silence';

const SETTINGS: SilenceSettings = { timeoutMs: 10_000, messages: ['Are you still there?', 'Hello?'], max: 2 };

const quiet: SilenceEvent = { type: 'quiet', busy: false };
const quietButBusy: SilenceEvent = { type: 'quiet', busy: true };
const activity: SilenceEvent = { type: 'activity' };
const spoke: SilenceEvent = { type: 'caller_spoke' };
const timer: SilenceEvent = { type: 'timer', busy: false };
const timerWhileBusy: SilenceEvent = { type: 'timer', busy: true };
const ending: SilenceEvent = { type: 'ending' };

const ARM: SilenceEffect = { type: 'arm', ms: 10_000 };
const CANCEL: SilenceEffect = { type: 'cancel' };
const idle = (text: string): SilenceEffect => ({ type: 'idle', text });
const END: SilenceEffect = { type: 'end', reason: 'silence_timeout' };

function run(settings: SilenceSettings, events: readonly SilenceEvent[]): SilenceEffect[] {
  let state = SILENCE_START;
  const effects: SilenceEffect[] = [];
  for (const event of events) {
    const step = reduceSilence(settings, state, event);
    state = step.state;
    effects.push(...step.effects);
  }
  return effects;
}

describe('reduceSilence', () => {
  describe.each([
    {
      name: 'idle messages in turn, then silence_timeout',
      events: [quiet, timer, quiet, timer, quiet, timer],
      effects: [CANCEL, ARM, idle('Are you still there?'), CANCEL, ARM, idle('Hello?'), CANCEL, ARM, END],
    },
    {
      name: 'the caller speaking starts the messages over',
      events: [quiet, timer, spoke, quiet, timer],
      effects: [CANCEL, ARM, idle('Are you still there?'), CANCEL, ARM, idle('Are you still there?')],
    },
    {
      name: 'no idle messages: silence_timeout at the first silence',
      settings: { ...SETTINGS, messages: [] },
      events: [quiet, timer],
      effects: [CANCEL, ARM, END],
    },
    {
      name: 'idle_max 0: silence_timeout at the first silence',
      settings: { ...SETTINGS, max: 0 },
      events: [quiet, timer],
      effects: [CANCEL, ARM, END],
    },
    { name: 'the clock never starts while someone talks or thinks', events: [quietButBusy, timer], effects: [CANCEL] },
    {
      name: 'idle prompt × late speech: the caller starts as the clock runs out, so no prompt and no ending',
      events: [quiet, timerWhileBusy, timer],
      effects: [CANCEL, ARM],
    },
    { name: 'speech stops the clock; a late timer does nothing', events: [quiet, activity, timer], effects: [CANCEL, ARM, CANCEL] },
    { name: 'ending stops the clock', events: [quiet, ending, timer], effects: [CANCEL, ARM, CANCEL] },
  ] as { name: string; settings?: SilenceSettings; events: SilenceEvent[]; effects: SilenceEffect[] }[])(
    '$name',
    ({ settings = SETTINGS, events, effects }) => {
      it('has the expected effects', () => {
        // Act / Assert
        expect(run(settings, events)).toEqual(effects);
      });
    },
  );
});
