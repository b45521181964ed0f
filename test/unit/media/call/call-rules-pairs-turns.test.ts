import {
  ANSWERING,
  AUDIBLE,
  BASE,
  NOTICE,
  TALKING,
  THINKING,
  callerWords,
  digit,
  eager,
  fakeWorkflow,
  interim,
  ownReply,
  replyDone,
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
 * The call's reducer where two features meet (issue 31's list), the turns' pairs: barge-in × tool
 * call, keypad × reply, idle prompt × late speech, workflow step × interruption (with a tiny fake
 * workflow). Rows as in `call-rules-floor.test.ts`.
 */
const SPEECH = ['say', 'reply', 'barge_in', 'silence', 'drop_queued', 'cancel_own_reply', 'finish'];
const NEVER = settings({ interruptions: 'never', keypad: { ...BASE.keypad, neverInterrupt: true } });
const WORKFLOW = settings({ workflow: fakeWorkflow() });
const inCall = [start, timer('greet'), said('greeting')];
const lookup = tool('lookup');

table('barge-in × tool call', [
  {
    name: 'live: the caller talking over the tool filler cuts it; the results still get a reply',
    settings: settings({ mode: 'live' }),
    given: [...inCall, replyDone('', [lookup]), timer('tool-filler')],
    when: [speech(AUDIBLE), callerWords('hang on a second'), toolsDone([lookup])],
    kinds: ['barge_in', 'reply', 'tool_result'],
    effects: ['barge_in', 'tool_result lookup: {"ok":true}', 'reply reply'],
  },
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
    name: "live: the provider's own reply to a caller turn gives way to the workflow's step line",
    settings: settings({ mode: 'live', workflow: fakeWorkflow() }),
    given: [start, timer('greet'), workflowSaid(), speech(), callerWords('Sam Lee')],
    when: [ownReply()],
    kinds: SPEECH,
    effects: ['say reply (turn, step): Step two: your date of birth?', 'cancel_own_reply'],
  },
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
