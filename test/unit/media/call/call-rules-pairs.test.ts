import { describe, expect, it } from 'vitest';
import {
  AUDIBLE,
  BASE,
  GREETING,
  NOTICE,
  NOTICED,
  OUTBOUND,
  amd,
  callerWords,
  interim,
  ownReply,
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
 * The call's reducer where two features meet (issue 31's list), first the opening's pairs: notice ×
 * voicemail, notice × caller talking, greeting × direction. The turns' pairs are in
 * `call-rules-pairs-turns.test.ts`; time limit × tool call and a fault in the middle of each pair in
 * `call-rules-faults.test.ts`. Rows as in `call-rules-floor.test.ts`.
 */
const SPEECH = ['say', 'reply', 'barge_in', 'silence', 'drop_queued', 'cancel_own_reply', 'finish'];
const OUT_NOTICED = settings({ ...OUTBOUND, notice: NOTICE });
const OUT_LIVE_NOTICED = settings({ ...OUT_NOTICED, mode: 'live' });
const LIVE_NOTICED = settings({ mode: 'live', notice: NOTICE });
const VOICEMAIL_MESSAGE = 'say voicemail: Please call us back.';
const noticeLead = 'say notice: Hi, this is Ada. This call is recorded.';

table('notice × voicemail', [
  {
    name: 'a machine verdict before any words: no notice, the message whole',
    settings: OUT_NOTICED,
    given: [start],
    when: [amd('machine_end_beep')],
    kinds: SPEECH,
    effects: ['silence', VOICEMAIL_MESSAGE],
  },
  {
    name: 'a machine greeting: nothing said over it, then the message',
    settings: OUT_NOTICED,
    given: [start, speech()],
    when: [turn("Hi, you've reached Jordan. Leave a message after the beep."), timer('voicemail')],
    kinds: SPEECH,
    effects: ['silence', VOICEMAIL_MESSAGE],
  },
  {
    name: 'a machine found while the notice plays: the notice is silenced, the message whole',
    settings: OUT_NOTICED,
    given: [start, speech(), turn('Hello?')],
    when: [amd('machine_end_beep')],
    kinds: SPEECH,
    effects: ['silence', VOICEMAIL_MESSAGE],
  },
  {
    name: 'the silenced notice is not asked again',
    settings: OUT_NOTICED,
    given: [start, speech(), turn('Hello?'), amd('machine_end_beep')],
    when: [said('notice', { cut: true })],
    effects: [],
  },
  {
    name: 'live: the silenced notice is not asked again',
    settings: OUT_LIVE_NOTICED,
    given: [start, speech(), callerWords('Hello?'), amd('machine_end_beep')],
    when: [said('notice', { cut: true })],
    effects: [],
  },
  {
    name: 'the notice was not heard on a voicemail',
    settings: OUT_NOTICED,
    given: [start, speech(), turn('Hello?')],
    when: [amd('machine_end_beep'), said('notice', { cut: true }), said('voicemail')],
    kinds: ['finish'],
    effects: ['finish voicemail'],
    state: (s) => s.notice.heard,
    expected: false,
  },
]);

table('notice × caller talking', [
  {
    name: "standard: words over the notice are held and answered after the greeting's question",
    settings: NOTICED,
    given: [start, timer('greet'), speech(AUDIBLE)],
    when: [turn('I need to move my appointment', AUDIBLE), said('notice', {}, AUDIBLE), said('greeting')],
    kinds: SPEECH,
    effects: ['reply reply (held)'],
  },
  {
    name: 'standard: a cut-in over the notice cuts the question when the notice ends, then the held words are answered',
    settings: NOTICED,
    given: [start, timer('greet'), speech(AUDIBLE), interim('I need to move it', AUDIBLE), turn('I need to move my appointment', AUDIBLE)],
    when: [said('notice', {}, AUDIBLE)],
    kinds: SPEECH,
    effects: ['barge_in', 'reply reply (held)'],
  },
  {
    name: "live: speech over the notice drops the question; the provider's reply follows the notice",
    settings: LIVE_NOTICED,
    given: [start, timer('greet')],
    when: [speech(AUDIBLE), callerWords('I need to move my appointment'), ownReply(AUDIBLE)],
    kinds: SPEECH,
    effects: ['drop_queued'],
  },
  {
    name: "live: the caller speaks before the notice: the provider's reply waits behind it",
    settings: LIVE_NOTICED,
    given: [start],
    when: [callerWords('Is the clinic open?'), ownReply()],
    kinds: SPEECH,
    effects: ['cancel_own_reply', 'say notice: This call is recorded.', 'reply reply'],
  },
  {
    name: 'a backchannel over the notice is not answered',
    settings: NOTICED,
    given: [start, timer('greet')],
    when: [turn('okay', AUDIBLE), said('notice'), said('greeting')],
    kinds: SPEECH,
    effects: [],
  },
]);

const SCREEN_OFF = settings({ opening: { ...BASE.opening, screen: false }, voicemail: { ...BASE.voicemail, enabled: false } });

table('greeting × direction', [
  {
    name: 'inbound: the greeting after greeting_delay_ms',
    given: [start],
    when: [timer('greet')],
    kinds: SPEECH,
    effects: [`say greeting (turn): ${GREETING}`],
  },
  {
    name: 'outbound, screening off: the same',
    settings: SCREEN_OFF,
    given: [start],
    when: [timer('greet')],
    kinds: SPEECH,
    effects: [`say greeting (turn): ${GREETING}`],
  },
  { name: 'outbound, screening: the greeting waits for the callee', settings: OUTBOUND, when: [start], effects: ['arm greet 2000'] },
  {
    name: 'outbound, screening: "Hello?" is answered by the greeting, not the model',
    settings: OUTBOUND,
    given: [start, speech()],
    when: [turn('Hello?')],
    kinds: SPEECH,
    effects: [`say greeting (turn): ${GREETING}`],
  },
  {
    name: 'outbound, screening, notice due: "Hello?" gets lead + notice, then the question',
    settings: OUT_NOTICED,
    given: [start, speech()],
    when: [turn('Hello?')],
    kinds: SPEECH,
    effects: [noticeLead, 'say greeting (turn): How can I help?'],
  },
  {
    name: 'outbound, screening: a silent line is greeted',
    settings: OUTBOUND,
    given: [start],
    when: [timer('greet')],
    kinds: SPEECH,
    effects: [`say greeting (turn): ${GREETING}`],
  },
  {
    name: 'outbound, screening: the greet timer never fires over a talking callee',
    settings: OUTBOUND,
    given: [start, speech()],
    when: [timer('greet')],
    kinds: SPEECH,
    effects: [],
  },
  {
    name: 'live, outbound, screening: the provider may not answer first',
    settings: settings({ ...OUTBOUND, mode: 'live' }),
    given: [start, speech()],
    when: [ownReply()],
    kinds: SPEECH,
    effects: ['cancel_own_reply'],
  },
  {
    name: 'live, outbound, screening: "Hello?" is greeted, the question after the notice',
    settings: OUT_LIVE_NOTICED,
    given: [start, speech()],
    when: [callerWords('Hello?')],
    kinds: SPEECH,
    effects: [noticeLead],
  },
]);

describe('greeting × direction, live: the provider answering "Hello?" too', () => {
  // When the callee's words reach us before the provider's own reply starts (the sandbox's realtime
  // session sends the transcription before `response.created`), the greeting is that turn's answer:
  // the provider's reply to it is cancelled too. When the reply starts first it is cancelled (row above).
  it('the greeting answers "Hello?"; the provider\'s reply after the words is cancelled', () => {
    // Act
    const { effects } = run(settings({ ...OUTBOUND, mode: 'live' }), [start, speech(), callerWords('Hello?')], [ownReply()]);
    // Assert
    expect(effects).toContain('cancel_own_reply');
  });

  it("the callee's next turn is the provider's to answer again", () => {
    // Act
    const { effects } = run(settings({ ...OUTBOUND, mode: 'live' }), [start, speech(), callerWords('Hello?'), speech()], [ownReply()]);
    // Assert
    expect(effects).not.toContain('cancel_own_reply');
  });
});
