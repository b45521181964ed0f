import { describe, expect, it } from 'vitest';
import {
  ANSWERING,
  AUDIBLE,
  BASE,
  GREETING,
  LIVE,
  OUTBOUND,
  TALKING,
  THINKING,
  amd,
  digit,
  eager,
  end,
  interim,
  resumed,
  run,
  said,
  settings,
  speech,
  start,
  table,
  timer,
  turn,
} from '../support/call-rules';

/**
 * The call's reducer, rule by rule: barge-in by interim words, eager guesses, what follows the
 * assistant's words, the keypad and voicemail. Rows as in `call-rules-floor.test.ts`.
 */

const greeted = [start, timer('greet')];

table('barge-in by interim words', [
  { name: 'anytime, enough words: cut off', given: greeted, when: [interim('no wait stop')], effects: ['barge_in', 'stop_thinking'] },
  { name: 'anytime, fewer words than interrupt_min_words: not cut', given: greeted, when: [interim('wait')], effects: [] },
  {
    name: 'interrupt_min_words 1: one word cuts',
    settings: settings({ interruptMinWords: 1 }),
    given: greeted,
    when: [interim('stop')],
    effects: ['barge_in', 'stop_thinking'],
  },
  { name: 'a backchannel never cuts', given: greeted, when: [interim('uh huh yeah')], effects: [] },
  { name: 'never: not cut', settings: settings({ interruptions: 'never' }), given: greeted, when: [interim('no wait stop')], effects: [] },
  {
    name: 'after_greeting, during the greeting: not cut',
    settings: settings({ interruptions: 'after_greeting' }),
    given: greeted,
    when: [interim('no wait stop')],
    effects: [],
  },
  {
    name: 'after_greeting, after the greeting: cut',
    settings: settings({ interruptions: 'after_greeting' }),
    given: [...greeted, said('greeting'), turn('Book me in')],
    when: [interim('no wait stop', ANSWERING)],
    effects: ['barge_in', 'stop_thinking'],
  },
  { name: 'nothing audible: nothing to cut', given: greeted, when: [interim('no wait stop', THINKING)], effects: [] },
  {
    name: 'live, speech over the assistant: cut (anytime)',
    settings: LIVE,
    given: greeted,
    when: [speech(AUDIBLE)],
    kinds: ['barge_in'],
    effects: ['barge_in'],
  },
  {
    name: 'live, after_greeting, during the greeting: not cut',
    settings: settings({ mode: 'live', interruptions: 'after_greeting' }),
    given: greeted,
    when: [speech(AUDIBLE)],
    kinds: ['barge_in'],
    effects: [],
  },
]);

table('eager think-ahead', [
  {
    name: 'quiet: the model starts early',
    given: [...greeted, said('greeting')],
    when: [eager('Book me in')],
    effects: ['think_ahead "Book me in"'],
  },
  {
    name: 'eager off: no guess',
    settings: settings({ eager: false }),
    given: [...greeted, said('greeting')],
    when: [eager('Book me in')],
    effects: [],
  },
  { name: 'a reply in flight: no guess', given: greeted, when: [eager('Book me in', THINKING)], effects: [] },
  { name: 'the assistant speaking: no guess', given: greeted, when: [eager('Book me in', AUDIBLE)], effects: [] },
  { name: 'the call ending: no guess', given: [...greeted, end('silence_timeout')], when: [eager('Book me in')], effects: [] },
  {
    name: 'a machine on the line: no guess',
    settings: OUTBOUND,
    given: [start, amd('machine_start')],
    when: [eager("you've reached Jordan")],
    effects: [],
  },
  {
    name: 'the turn resumed: the guess is dropped',
    given: [...greeted, said('greeting')],
    when: [eager('Book me'), resumed],
    effects: ['think_ahead "Book me"', 'stop_thinking'],
  },
]);

table('after the assistant speaks', [
  {
    name: 'quiet after the greeting: the silence clock starts',
    given: greeted,
    when: [said('greeting')],
    effects: ['cancel silence', 'arm silence 10000'],
  },
  { name: 'still speaking (a reply queued behind): nothing yet', given: greeted, when: [said('greeting', {}, AUDIBLE)], effects: [] },
  { name: 'the caller mid-turn: the clock waits', given: greeted, when: [said('greeting', {}, TALKING)], effects: ['cancel silence'] },
]);

table('keypad', [
  {
    name: 'digits until #: one caller message, answered',
    given: [...greeted, said('greeting')],
    when: [digit('1'), digit('2'), digit('#')],
    kinds: ['transcript', 'user_words', 'reply', 'arm dtmf'],
    effects: [
      'arm dtmf 1500',
      'arm dtmf 1500',
      'transcript user: [keypad] 1 2 #',
      'user_words "[keypad] 1 2 #"',
      'reply reply to "[keypad] 1 2 #"',
    ],
  },
  {
    name: 'a pause ends the entry',
    given: [...greeted, said('greeting'), digit('4')],
    when: [timer('dtmf')],
    kinds: ['transcript', 'reply'],
    effects: ['transcript user: [keypad] 4', 'reply reply to "[keypad] 4"'],
  },
  {
    name: 'keypad off: keys ignored',
    settings: settings({ keypad: { ...BASE.keypad, enabled: false } }),
    given: greeted,
    when: [digit('1'), digit('#')],
    effects: [],
  },
  {
    name: 'live: the entry goes to the model, which is asked to answer',
    settings: LIVE,
    given: [...greeted, said('greeting')],
    when: [digit('7'), digit('#')],
    kinds: ['user_words', 'reply'],
    effects: ['user_words "[keypad] 7 #"', 'reply reply'],
  },
]);

const MACHINE = OUTBOUND;
const leaveMessage = ['cancel voicemail', 'say voicemail: Please call us back.', `arm goodbye ${8000 + 20 * 120}`];
const claimed = ['cancel_timers', 'stop_thinking', 'cancel silence', 'silence'];

table('voicemail', [
  {
    name: "AMD beep verdict: the call is voicemail's, the message at once",
    settings: MACHINE,
    given: [start],
    when: [amd('machine_end_beep')],
    kinds: ['cancel_timers', 'stop_thinking', 'cancel silence', 'silence', 'cancel voicemail', 'say', 'arm goodbye'],
    effects: [...claimed, ...leaveMessage],
  },
  {
    name: 'the message played: finish voicemail',
    settings: MACHINE,
    given: [start, amd('machine_end_beep')],
    when: [said('voicemail')],
    effects: ['cancel goodbye', 'finish voicemail'],
  },
  {
    name: 'the message never reports: finish at its bound',
    settings: MACHINE,
    given: [start, amd('machine_end_beep')],
    when: [timer('goodbye')],
    effects: ['cancel goodbye', 'finish voicemail'],
  },
  {
    name: 'machine_start: wait for the greeting to fall quiet, again after more words',
    settings: MACHINE,
    given: [start],
    when: [amd('machine_start'), speech(), turn("you've reached Jordan"), timer('voicemail')],
    kinds: ['arm voicemail', 'cancel voicemail', 'say', 'reply'],
    effects: ['arm voicemail 2500', 'cancel voicemail', 'arm voicemail 2500', ...leaveMessage.slice(0, 2)],
  },
  {
    name: 'a machine-sounding first turn: voicemail, its words never answered',
    settings: MACHINE,
    given: [start, speech()],
    when: [turn("Hi, you've reached Jordan. Please leave a message after the tone.")],
    kinds: ['say', 'reply', 'silence', 'arm voicemail', 'user_words'],
    effects: ['silence', 'arm voicemail 2500'],
    state: (s) => [s.voicemail, s.ending.reason],
    expected: ['waiting', 'voicemail'],
  },
  {
    name: 'no message: hang up as soon as a machine is known',
    settings: settings({ ...MACHINE, voicemail: { ...MACHINE.voicemail, message: '' } }),
    given: [start],
    when: [amd('machine_end_beep')],
    kinds: ['say', 'finish'],
    effects: ['finish voicemail'],
  },
  {
    name: 'fax: hang up, no message',
    settings: MACHINE,
    given: [start],
    when: [amd('fax')],
    kinds: ['say', 'finish'],
    effects: ['finish voicemail'],
  },
  { name: 'inbound: verdicts mean nothing', given: [start], when: [amd('machine_end_beep')], effects: [] },
  {
    name: 'a person: greeted after greeting_delay_ms',
    settings: MACHINE,
    given: [start],
    when: [amd('human'), timer('greet')],
    kinds: ['arm greet', 'say'],
    effects: ['arm greet 400', `say greeting (turn): ${GREETING}`],
  },
  {
    name: 'the call already ending: a machine changes nothing',
    settings: MACHINE,
    given: [start, end('canceled', false)],
    when: [amd('machine_end_beep')],
    kinds: ['say', 'silence', 'finish'],
    effects: [],
    state: (s) => s.ending.reason,
    expected: 'canceled',
  },
  {
    name: 'keys on a machine are ignored',
    settings: MACHINE,
    given: [start, amd('machine_start')],
    when: [digit('1'), digit('#')],
    effects: [],
  },
]);

describe("live, after_greeting: the provider's own barge-in", () => {
  // `after_greeting` forbids cutting the greeting (docs/design.md "How each setting is honoured"):
  // the live session opens with the provider's barge-in off, and it comes on once the greeting is
  // done (before the reducer, it came on at once whenever no notice was due).
  it('stays off until the greeting was said, then comes on', () => {
    // Arrange
    const set = settings({ mode: 'live', interruptions: 'after_greeting' });
    // Act
    const before = run(set, [], [start, timer('greet')]);
    const after = run(set, [start, timer('greet')], [said('greeting')]);
    // Assert
    expect(before.state.floor.providerInterrupts).toBe(false);
    expect(after.effects).toContain('provider_interrupts');
  });
});
