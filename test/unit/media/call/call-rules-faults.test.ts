import { describe, expect, it } from 'vitest';
import type { CallSettings, CallEvent } from '../../../../media-service/src/call/rules/call-types';
import {
  ANSWERING,
  AUDIBLE,
  BASE,
  FALLBACK,
  NOTICE,
  NOTICED,
  OUTBOUND,
  amd,
  callerWords,
  digit,
  end,
  fakeWorkflow,
  fault,
  interim,
  only,
  replyDone,
  replyFailed,
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
  type Call,
  type Row,
} from '../support/call-rules';

/**
 * The call's reducer where an ending meets the other features: the time limit while tools run, and
 * a provider fault in the middle of each pair of `call-rules-pairs.test.ts` and
 * `call-rules-pairs-turns.test.ts`, which must end the call the same way every time. Rows as in
 * `call-rules-floor.test.ts`.
 */

const SPEECH = ['say', 'reply', 'barge_in', 'silence', 'drop_queued', 'cancel_own_reply', 'finish'];
const OUT_NOTICED = settings({ ...OUTBOUND, notice: NOTICE });
const LIVE_NOTICED = settings({ mode: 'live', notice: NOTICE });
const WORKFLOW = settings({ workflow: fakeWorkflow() });
const inCall = [start, timer('greet'), said('greeting')];
const lookup = tool('lookup');

table('time limit × tool call', [
  {
    name: 'max_duration while tools run: the goodbye; their results ask nothing of the model; then finish',
    given: [...inCall, replyDone('', [lookup])],
    when: [end('max_duration'), toolsDone([lookup]), said('goodbye')],
    effects: [
      'cancel_timers',
      'stop_thinking',
      'cancel silence',
      'silence',
      'say goodbye: Goodbye.',
      'arm goodbye 8000',
      'cancel tool-filler',
      'transcript tool: lookup ok',
      'cancel goodbye',
      'finish max_duration',
    ],
  },
]);

/** A fault's outcome, whatever was going on: silenced, the fallback line, then `error`. Nothing else is said or asked. */
const FAILED = ['silence', `say goodbye: ${FALLBACK}`, 'finish error'];
const failing = (
  name: string,
  set: CallSettings,
  given: CallEvent<Call>[],
  after: CallEvent<Call>[],
  how: CallEvent<Call> = fault(),
): Row => ({
  name,
  settings: set,
  given,
  when: [how, ...after, said('goodbye')],
  kinds: [...SPEECH, 'run_tools', 'think_ahead', 'user_words', 'tool_result'],
  effects: FAILED,
  state: (s) => s.ending,
  expected: { reason: 'error', lastWords: false, finished: true },
});

table('fault × each pair', [
  failing(
    'notice × voicemail: a fault while the notice plays; the machine verdict after changes nothing',
    OUT_NOTICED,
    [start, speech(), turn('Hello?')],
    [amd('machine_end_beep'), said('notice', { cut: true })],
  ),
  failing(
    'notice × voicemail: a failed reply while the machine greets',
    OUT_NOTICED,
    [start, speech()],
    [turn("You've reached Jordan, leave a message after the beep")],
    replyFailed,
  ),
  failing(
    'notice × caller talking: held words are not answered',
    NOTICED,
    [start, timer('greet'), turn('Can I move my booking?', AUDIBLE)],
    [said('notice', { cut: true }), said('greeting', { cut: true })],
  ),
  failing(
    "notice × caller talking (live): the provider's own reply is cancelled",
    LIVE_NOTICED,
    [start, timer('greet'), speech(AUDIBLE)],
    [callerWords('Can I move my booking?'), said('notice', { cut: true })],
  ),
  failing(
    'greeting × direction: a fault while screening; "Hello?" gets no greeting',
    OUTBOUND,
    [start, speech()],
    [turn('Hello?'), timer('greet')],
  ),
  failing(
    'barge-in × tool call: tools done after a failed reply ask nothing',
    BASE,
    [...inCall, replyDone('', [lookup]), turn('And Friday?')],
    [toolsDone([lookup])],
    replyFailed,
  ),
  failing(
    'keypad × reply: keys after the fault are ignored',
    BASE,
    [...inCall, turn('My account?'), digit('4')],
    [digit('#', ANSWERING), digit('5')],
  ),
  failing('idle prompt × late speech: a late silence timer says nothing', BASE, inCall, [timer('silence'), turn('Hello?')]),
  failing(
    'workflow step × interruption: the workflow acts no more',
    WORKFLOW,
    [start, timer('greet')],
    [interim('sorry who is this', AUDIBLE), turn('Sam Lee'), workflowSaid()],
  ),
  failing(
    'time limit × tool call: the fallback replaces the goodbye; the cut goodbye does not finish',
    BASE,
    [...inCall, replyDone('', [lookup]), end('max_duration')],
    [said('goodbye', { cut: true }), toolsDone([lookup])],
  ),
]);

describe('fault × each pair: the fallback line only once', () => {
  it('a second fault in the middle of a pair adds nothing', () => {
    // Act
    const { effects } = run(BASE, [...inCall, replyDone('', [lookup]), fault()], [replyFailed, fault(true), toolsDone([lookup])]);
    // Assert
    expect(only(effects, ...SPEECH, 'provider_failed')).toEqual([]);
  });

  it("the fallback is said with the time limit's goodbye cut first", () => {
    // Act
    const { effects } = run(BASE, [...inCall, end('max_duration')], [fault()]);
    // Assert
    expect(effects).toEqual([
      'provider_failed voice socket closed',
      'cancel_timers',
      'stop_thinking',
      'cancel silence',
      'silence',
      `say goodbye: ${FALLBACK}`,
      'arm goodbye 8000',
    ]);
  });
});
