import { describe, expect, it } from 'vitest';
import { reduceKeypad, type KeypadEffect, type KeypadEvent, type KeypadSettings } from '../../../../media-service/src/call/rules/keypad';

const ON: KeypadSettings = { enabled: true, idleMs: 1500, neverInterrupt: false };

const key = (digit: string, options: { closed?: boolean; audible?: boolean } = {}): KeypadEvent => ({
  type: 'press',
  digit,
  closed: options.closed ?? false,
  audible: options.audible ?? false,
});
const pause = (audible = false): KeypadEvent => ({ type: 'pause', audible });

const ARM: KeypadEffect = { type: 'arm', ms: 1500 };
const CANCEL: KeypadEffect = { type: 'cancel' };
const QUIET: KeypadEffect = { type: 'quiet' };
const BARGE: KeypadEffect = { type: 'barge_in' };
const entered = (text: string): KeypadEffect => ({ type: 'entered', text });

function run(settings: KeypadSettings, events: readonly KeypadEvent[]): KeypadEffect[] {
  let digits = '';
  const effects: KeypadEffect[] = [];
  for (const event of events) {
    const step = reduceKeypad(settings, digits, event);
    digits = step.digits;
    effects.push(...step.effects);
  }
  return effects;
}

describe('reduceKeypad', () => {
  describe.each([
    {
      name: '# ends the entry at once',
      events: [key('1'), key('2'), key('#')],
      effects: [QUIET, ARM, QUIET, ARM, QUIET, CANCEL, entered('[keypad] 1 2 #')],
    },
    {
      name: 'a pause ends the entry',
      events: [key('4'), key('2'), pause()],
      effects: [QUIET, ARM, QUIET, ARM, CANCEL, entered('[keypad] 4 2')],
    },
    {
      name: 'keypad × reply: an entry while the assistant is audible cuts it off first',
      events: [key('7', { audible: true }), pause(true)],
      effects: [QUIET, ARM, CANCEL, BARGE, entered('[keypad] 7')],
    },
    {
      name: 'keypad × reply with interruptions never: the entry waits its turn',
      settings: { ...ON, neverInterrupt: true },
      events: [key('#', { audible: true })],
      effects: [QUIET, CANCEL, entered('[keypad] #')],
    },
    { name: 'keypad off: keys are ignored', settings: { ...ON, enabled: false }, events: [key('1'), key('#')], effects: [] },
    {
      name: 'while the call ends or a machine is on the line: keys are ignored',
      events: [key('1', { closed: true }), pause()],
      effects: [CANCEL],
    },
    { name: 'a pause with nothing typed changes nothing', events: [pause()], effects: [CANCEL] },
    {
      name: 'two entries in a row are two messages',
      events: [key('1'), pause(), key('2'), key('#')],
      effects: [QUIET, ARM, CANCEL, entered('[keypad] 1'), QUIET, ARM, QUIET, CANCEL, entered('[keypad] 2 #')],
    },
  ] as { name: string; settings?: KeypadSettings; events: KeypadEvent[]; effects: KeypadEffect[] }[])(
    '$name',
    ({ settings = ON, events, effects }) => {
      it('has the expected effects', () => {
        // Act / Assert
        expect(run(settings, events)).toEqual(effects);
      });
    },
  );
});
