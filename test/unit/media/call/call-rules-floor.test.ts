import {
  AUDIBLE,
  BASE,
  GREETING,
  LIVE,
  NOTICE,
  NOTICED,
  QUIET,
  TALKING,
  THINKING,
  interim,
  quietTurn,
  said,
  settings,
  speech,
  start,
  table,
  timer,
  turn,
} from '../support/call-rules';

/**
 * The call's reducer (`reduceCall`), rule by rule: the greeting, the notice, and answering or holding
 * the caller's words. Each row (`table`, in `../support/call-rules.ts`): the call so far (`given`),
 * the events under test (`when`), the effects they must produce, and a part of the state after.
 */

const MODEL_GREETS = settings({ greeting: { modelGenerated: true, text: '' } });
const LIVE_NOTICED = settings({ mode: 'live', notice: NOTICE });
const greeted = [start, timer('greet')];
const noticeThenQuestion = ['say notice: Hi, this is Ada. This call is recorded.', 'say greeting (turn): How can I help?'];

table('greeting', [
  {
    name: 'scripted: the greeting as written after greeting_delay_ms',
    given: [],
    when: greeted,
    effects: ['arm greet 400', `say greeting (turn): ${GREETING}`],
  },
  {
    name: 'model_generated: the model greets',
    settings: MODEL_GREETS,
    given: [start],
    when: [timer('greet')],
    effects: ['cancel silence', 'reply greeting'],
  },
  {
    name: 'notice due: lead + notice in one utterance, then the question as the turn',
    settings: NOTICED,
    given: [start],
    when: [timer('greet')],
    effects: noticeThenQuestion,
  },
  {
    name: 'notice due, greeting without a question: the greeting leads the notice, nothing after',
    settings: settings({ notice: NOTICE, greeting: { modelGenerated: false, text: 'Hi, this is Ada.' } }),
    given: [start],
    when: [timer('greet')],
    effects: ['say notice: Hi, this is Ada. This call is recorded.'],
  },
  {
    name: 'notice due, model greets: the notice first, then the model',
    settings: settings({ notice: NOTICE, greeting: { modelGenerated: true, text: '' } }),
    given: [start],
    when: [timer('greet')],
    effects: ['cancel silence', 'say notice: This call is recorded.', 'reply greeting'],
  },
  {
    name: 'live, notice due: the question waits for the notice to play',
    settings: LIVE_NOTICED,
    given: [start],
    when: [timer('greet')],
    effects: ['say notice: Hi, this is Ada. This call is recorded.'],
    state: (s) => s.notice,
    expected: { pending: true, heard: false, heldBargeIn: false, question: 'How can I help?' },
  },
  {
    name: 'live, notice played: the question is asked, and the provider may interrupt again',
    settings: LIVE_NOTICED,
    given: greeted,
    when: [said('notice')],
    effects: ['say greeting (turn): How can I help?', 'provider_interrupts'],
  },
  {
    name: 'a reply already in flight when the delay ends: no greeting over it',
    given: [start],
    when: [timer('greet', THINKING)],
    effects: [],
  },
  {
    name: 'a caller who finishes a turn first is answered, never greeted',
    given: [start],
    when: [speech(), turn('I need a plumber'), timer('greet')],
    kinds: ['say', 'reply', 'cancel greet'],
    effects: ['cancel greet', 'reply reply to "I need a plumber"'],
  },
  {
    name: 'wait_for_user: no greeting, the silence clock runs',
    settings: settings({ opening: { ...BASE.opening, mode: 'wait_for_user' } }),
    when: [start],
    effects: ['cancel silence', 'arm silence 10000'],
  },
]);

table('notice', [
  {
    name: 'standard: words over the notice do not cut it; the cut-in is held',
    settings: NOTICED,
    given: greeted,
    when: [speech(AUDIBLE), interim('wait a second please', AUDIBLE)],
    effects: ['cancel silence'],
    state: (s) => s.notice.heldBargeIn,
    expected: true,
  },
  {
    name: 'standard: the held cut-in applies when the notice ends (the question is cut)',
    settings: NOTICED,
    given: [...greeted, speech(AUDIBLE), interim('wait a second please', AUDIBLE)],
    when: [said('notice', {}, { ...AUDIBLE, callerSpeaking: true })],
    effects: ['barge_in', 'stop_thinking', 'cancel silence'],
    state: (s) => [s.notice.heard, s.floor.greetingDone],
    expected: [true, true],
  },
  {
    name: 'live: speech over the notice leaves it playing and drops the queued question',
    settings: LIVE_NOTICED,
    given: greeted,
    when: [speech(AUDIBLE)],
    effects: ['cancel silence', 'drop_queued'],
    state: (s) => s.notice.question,
    expected: '',
  },
  {
    name: 'live: after a talked-over notice, no question; the provider may interrupt again',
    settings: LIVE_NOTICED,
    given: [...greeted, speech(AUDIBLE)],
    when: [said('notice', {}, TALKING)],
    effects: ['cancel silence', 'provider_interrupts'],
  },
  {
    name: 'live: a notice cut by the provider is asked again, first, alone',
    settings: LIVE_NOTICED,
    given: greeted,
    when: [said('notice', { cut: true })],
    effects: ['say notice (first): This call is recorded.'],
    state: (s) => [s.notice.pending, s.notice.heard],
    expected: [true, false],
  },
  {
    name: 'live: the provider does not interrupt until the notice is heard',
    settings: LIVE_NOTICED,
    when: [],
    effects: [],
    state: (s) => s.floor.providerInterrupts,
    expected: false,
  },
  {
    name: 'live, no notice: the provider interrupts from the start',
    settings: LIVE,
    when: [],
    effects: [],
    state: (s) => s.floor.providerInterrupts,
    expected: true,
  },
  {
    name: 'live, interruptions never: the provider never interrupts, even after the notice',
    settings: settings({ mode: 'live', notice: NOTICE, interruptions: 'never' }),
    given: greeted,
    when: [said('notice')],
    kinds: ['provider_interrupts'],
    effects: [],
  },
  {
    name: "the caller speaks first: the notice goes before the model's first reply",
    settings: NOTICED,
    given: [start],
    when: [turn('Is the clinic open?')],
    kinds: ['say', 'reply'],
    effects: ['say notice: This call is recorded.', 'reply reply to "Is the clinic open?"'],
  },
  {
    name: 'heard once: never said again',
    settings: NOTICED,
    given: [...greeted, said('notice'), said('greeting')],
    when: [turn('Is the clinic open?')],
    kinds: ['say', 'reply'],
    effects: ['reply reply to "Is the clinic open?"'],
  },
]);

table('answer, hold, backchannel', [
  {
    name: 'quiet: the words are answered',
    given: greeted,
    when: [turn('Book me in')],
    kinds: ['reply', 'user_words', 'transcript'],
    effects: ['transcript user: Book me in', 'user_words "Book me in"', 'reply reply to "Book me in"'],
  },
  {
    name: 'the assistant audible (interruptions never): the words are held, not answered',
    settings: settings({ interruptions: 'never' }),
    given: greeted,
    when: [turn('Book me in', AUDIBLE)],
    kinds: ['reply', 'stop_thinking'],
    effects: ['stop_thinking'],
    state: (s) => s.floor.held,
    expected: { endOfTurnAt: 0, eager: false, held: true },
  },
  {
    name: 'held words are answered once the assistant is quiet',
    settings: settings({ interruptions: 'never' }),
    given: [...greeted, turn('Book me in', AUDIBLE)],
    when: [said('greeting')],
    effects: ['cancel silence', 'reply reply (held)'],
  },
  {
    name: 'a backchannel over the assistant is dropped',
    given: greeted,
    when: [turn('uh huh', AUDIBLE), said('greeting')],
    kinds: ['reply', 'arm'],
    effects: ['arm silence 10000'],
  },
  {
    name: 'a reply nobody heard yet gives way to newer words',
    given: greeted,
    when: [turn('Actually, Tuesday', THINKING)],
    kinds: ['reply', 'cancel_reply'],
    effects: ['cancel_reply', 'reply reply to "Actually, Tuesday"'],
  },
  {
    name: 'a turn with no words: the silence clock starts',
    given: [...greeted, said('greeting')],
    when: [quietTurn()],
    effects: ['stop_thinking', 'cancel silence', 'arm silence 10000'],
  },
  {
    name: 'the caller hung up mid-turn: their words are kept, nothing answered',
    given: greeted,
    when: [turn('Bye then', QUIET, true)],
    effects: ['transcript user: Bye then'],
  },
]);
