import { describe, expect, it } from 'vitest';
import {
  ANSWERING,
  AUDIBLE,
  BASE,
  GREETING,
  NOTICE,
  NOTICED,
  OUTBOUND,
  TALKING,
  THINKING,
  amd,
  callerWords,
  digit,
  eager,
  fakeWorkflow,
  interim,
  ownReply,
  replyDone,
  run,
  said,
  settings,
  speech,
  start,
  table,
  timer,
  tool,
  toolsDone,
  turn,
  workflowSaid,
} from '../support/call-rules';

/**
 * The call's reducer where two features meet (issue 31's list): notice × voicemail, notice ×
 * caller talking, greeting × direction, barge-in × tool call, keypad × reply, idle prompt × late
 * speech, workflow step × interruption. Time limit × tool call and a fault in the middle of each
 * pair are in `call-rules-faults.test.ts`. Rows as in `call-rules-floor.test.ts`.
 */

const SPEECH = ['say', 'reply', 'barge_in', 'silence', 'drop_queued', 'cancel_own_reply', 'finish'];
const OUT_NOTICED = settings({ ...OUTBOUND, notice: NOTICE });
const OUT_LIVE_NOTICED = settings({ ...OUT_NOTICED, mode: 'live' });
const LIVE_NOTICED = settings({ mode: 'live', notice: NOTICE });
const NEVER = settings({ interruptions: 'never', keypad: { ...BASE.keypad, neverInterrupt: true } });
const WORKFLOW = settings({ workflow: fakeWorkflow() });
const VOICEMAIL_MESSAGE = 'say voicemail: Please call us back.';
const noticeLead = 'say notice: Hi, this is Ada. This call is recorded.';
const inCall = [start, timer('greet'), said('greeting')];
const lookup = tool('lookup');

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

table('barge-in × tool call', [
  {
    name: 'words while tools run wait for the results; one reply answers both',
    given: [...inCall, replyDone('Let me check.', [lookup])],
    when: [speech(), turn('Also, is Friday free?'), toolsDone([lookup])],
    kinds: ['user_words', 'tool_result', 'reply', 'cancel_reply'],
    effects: ['user_words "Also, is Friday free?"', 'tool_result lookup: {"ok":true}', 'reply reply'],
  },
  {
    name: 'no eager guess while tools run',
    given: [...inCall, replyDone('', [lookup])],
    when: [eager('Also, is Friday free?')],
    effects: [],
  },
  {
    name: "a barge-in over the tool filler cuts it; the tools' reply still comes",
    given: [...inCall, replyDone('', [lookup]), timer('tool-filler')],
    when: [interim('hang on a second', AUDIBLE), turn('hang on a second'), toolsDone([lookup])],
    kinds: ['barge_in', 'reply', 'tool_result'],
    effects: ['barge_in', 'tool_result lookup: {"ok":true}', 'reply reply'],
  },
  {
    name: 'the filler timer after the tools are done says nothing',
    given: [...inCall, replyDone('', [lookup]), toolsDone([lookup])],
    when: [timer('tool-filler', THINKING)],
    kinds: ['say'],
    effects: ['say filler: One moment while I take care of that.'],
    state: (s) => s.tools.running,
    expected: 0,
  },
]);

table('keypad × reply', [
  {
    name: 'keys over an audible reply cut it, then are answered',
    given: [...inCall, turn('My account?')],
    when: [digit('4'), digit('#', ANSWERING)],
    kinds: SPEECH,
    effects: ['barge_in', 'reply reply to "[keypad] 4 #"'],
  },
  {
    name: 'keys while a reply is thought up: it gives way to them',
    given: [...inCall, turn('My account?')],
    when: [digit('4'), digit('#', THINKING)],
    kinds: [...SPEECH, 'cancel_reply'],
    effects: ['cancel_reply', 'reply reply to "[keypad] 4 #"'],
  },
  {
    name: 'interruptions never: keys over a reply are held until it ends',
    settings: NEVER,
    given: [...inCall, turn('My account?')],
    when: [digit('4'), digit('#', ANSWERING), replyDone('Please type it.')],
    kinds: SPEECH,
    effects: ['reply reply (held)'],
  },
  {
    name: 'keys while tools run: answered with the results',
    given: [...inCall, replyDone('', [lookup])],
    when: [digit('4'), digit('#'), toolsDone([lookup])],
    kinds: ['user_words', 'reply'],
    effects: ['user_words "[keypad] 4 #"', 'reply reply'],
  },
]);

table('idle prompt × late speech', [
  {
    name: 'the clock runs out as the caller starts: no prompt, no ending',
    given: inCall,
    when: [timer('silence', TALKING)],
    kinds: SPEECH,
    effects: [],
    state: (s) => s.silence,
    expected: { armed: false, said: 0 },
  },
  {
    name: 'the clock runs out while a reply is thought up: no prompt',
    given: inCall,
    when: [timer('silence', THINKING)],
    kinds: SPEECH,
    effects: [],
  },
  {
    name: 'a late timer after the caller spoke does nothing',
    given: [...inCall, speech(), turn('Hello?')],
    when: [timer('silence')],
    kinds: SPEECH,
    effects: [],
  },
  {
    name: 'the caller cuts the idle prompt off',
    given: [...inCall, timer('silence')],
    when: [interim('yes I am here', AUDIBLE)],
    kinds: SPEECH,
    effects: ['barge_in'],
  },
  {
    name: 'caller words after a prompt start the prompts over',
    given: [...inCall, timer('silence'), said('idle'), turn('Sorry, go on.')],
    when: [replyDone('Sure.'), timer('silence')],
    kinds: SPEECH,
    effects: ['say idle (turn): Are you there?'],
  },
]);

table('workflow step × interruption', [
  {
    name: 'the workflow opens the call with its step line',
    settings: WORKFLOW,
    given: [start],
    when: [timer('greet')],
    kinds: SPEECH,
    effects: ['say reply (turn, step): Step one: your name?'],
  },
  {
    name: "a caller turn while a step line speaks is the workflow's, not the model's",
    settings: WORKFLOW,
    given: [start, timer('greet')],
    when: [turn('Sam Lee', AUDIBLE)],
    kinds: [...SPEECH, 'stop_thinking'],
    effects: ['say reply (turn, step): Step two: your date of birth?', 'stop_thinking'],
  },
  {
    name: 'a barge-in cutting a step line: the step is still reported said',
    settings: WORKFLOW,
    given: [start, timer('greet')],
    when: [interim('sorry who is this', AUDIBLE), workflowSaid(TALKING)],
    kinds: SPEECH,
    effects: ['barge_in'],
    state: (s) => (s.workflow as { said?: number }).said,
    expected: 1,
  },
  {
    name: "the workflow's reply waits for a caller still mid-turn",
    settings: settings({ workflow: fakeWorkflow([]) }),
    given: [start],
    when: [timer('greet', TALKING)],
    kinds: SPEECH,
    effects: [],
  },
  {
    name: 'notice due: the notice, then the step line',
    settings: settings({ notice: NOTICE, workflow: fakeWorkflow() }),
    given: [start],
    when: [timer('greet')],
    kinds: SPEECH,
    effects: ['say notice: This call is recorded.', 'say reply (turn, step): Step one: your name?'],
  },
]);

describe('greeting × direction, live: the provider answering "Hello?" too', () => {
  // Rule bug, reported to the integrator: in live mode `callerWords` (rules/call.ts) ignores what
  // the opening returns (`answered`: the greeting is this turn's answer). When the callee's words
  // reach us before the provider's own reply starts (the sandbox's realtime session sends the
  // transcription before `response.created`, sandbox/realtime-session.ts), `ownReply`
  // finds the call no longer screening and lets that reply play: the callee hears the greeting and
  // the model's own answer to "Hello?". When the reply starts first it is cancelled (row above).
  it.fails('the greeting answers "Hello?"; the provider\'s reply after the words is cancelled', () => {
    // Act
    const { effects } = run(settings({ ...OUTBOUND, mode: 'live' }), [start, speech(), callerWords('Hello?')], [ownReply()]);
    // Assert
    expect(effects).toContain('cancel_own_reply');
  });
});
