import { describe, expect, it } from 'vitest';
import type { CallState } from '../../../../media-service/src/call/rules/call-types';
import {
  AUDIBLE,
  BASE,
  FALLBACK,
  QUIET,
  TALKING,
  amd,
  end,
  fault,
  replyDone,
  replyFailed,
  run,
  said,
  settings,
  start,
  table,
  timer,
  tool,
  toolsDone,
  transferFailed,
  turn,
} from '../support/call-rules';

/**
 * The call's reducer: how a call ends (the first reason wins, a provider failure overrides it with
 * the fallback line, the last words are bounded) and what a finished reply means (tool rounds,
 * `end_call`, a transfer, an end phrase). Rows as in `call-rules-floor.test.ts`.
 */

const inCall = [start, timer('greet'), said('greeting')];
const claim = ['cancel_timers', 'stop_thinking', 'cancel silence'];
const goodbye = ['say goodbye: Goodbye.', 'arm goodbye 8000'];
const fallback = ['provider_failed voice socket closed', ...claim, 'silence', `say goodbye: ${FALLBACK}`, 'arm goodbye 8000'];
const reason = (s: CallState) => s.ending.reason;

table('endings', [
  {
    name: 'the goodbye plays, then the hang-up',
    given: inCall,
    when: [end('silence_timeout'), said('goodbye')],
    effects: [...claim, ...goodbye, 'cancel goodbye', 'finish silence_timeout'],
  },
  {
    name: 'the first reason wins',
    given: inCall,
    when: [end('assistant_ended'), end('end_phrase', false), said('goodbye')],
    kinds: ['finish', 'say'],
    effects: ['say goodbye: Goodbye.', 'finish assistant_ended'],
    state: reason,
    expected: 'assistant_ended',
  },
  {
    name: 'max_duration silences the assistant first',
    given: inCall,
    when: [end('max_duration')],
    effects: [...claim, 'silence', ...goodbye],
  },
  { name: 'canceled silences the assistant first', given: inCall, when: [end('canceled')], effects: [...claim, 'silence', ...goodbye] },
  {
    name: 'no goodbye asked: the hang-up at once',
    given: inCall,
    when: [end('caller_hung_up', false)],
    effects: [...claim, 'cancel goodbye', 'finish caller_hung_up'],
  },
  {
    name: 'no end_call_message: the hang-up at once',
    settings: settings({ endCallMessage: '' }),
    given: inCall,
    when: [end('assistant_ended')],
    effects: [...claim, 'cancel goodbye', 'finish assistant_ended'],
  },
  {
    name: 'a goodbye that never reports ends at its bound',
    given: [...inCall, end('silence_timeout')],
    when: [timer('goodbye')],
    effects: ['cancel goodbye', 'finish silence_timeout'],
  },
  {
    name: 'a cut goodbye does not finish',
    given: [...inCall, end('silence_timeout')],
    when: [said('goodbye', { cut: true })],
    effects: [],
  },
  { name: 'finish happens once', given: [...inCall, end('silence_timeout'), said('goodbye')], when: [timer('goodbye')], effects: [] },
  {
    name: 'a fault: the fallback line, then error',
    given: inCall,
    when: [fault(), said('goodbye')],
    effects: [...fallback, 'cancel goodbye', 'finish error'],
  },
  {
    name: 'a failed reply: the fallback line, then error',
    given: [...inCall, turn('Book me in')],
    when: [replyFailed],
    kinds: ['provider_failed', 'say', 'reply', 'finish'],
    effects: ['provider_failed model 503', `say goodbye: ${FALLBACK}`],
    state: reason,
    expected: 'error',
  },
  {
    name: "a fault overrides a goodbye under way; the old goodbye's cut does not finish",
    given: [...inCall, end('assistant_ended')],
    when: [fault(), said('goodbye', { cut: true }), said('goodbye')],
    kinds: ['say', 'finish'],
    effects: [`say goodbye: ${FALLBACK}`, 'finish error'],
  },
  { name: 'a second fault is ignored', given: [...inCall, fault()], when: [fault(), replyFailed], effects: [] },
  {
    name: 'the voice lost: no fallback line, error at once',
    given: inCall,
    when: [fault(true)],
    effects: ['provider_failed voice socket closed', ...claim, 'silence', 'cancel goodbye', 'finish error'],
  },
  {
    name: 'safety_fallback off: no fallback line, error at once',
    settings: settings({ safetyFallback: false }),
    given: inCall,
    when: [fault()],
    kinds: ['say', 'finish'],
    effects: ['finish error'],
  },
  {
    name: 'silence: each idle message, then the goodbye and silence_timeout',
    given: inCall,
    when: [timer('silence'), said('idle'), timer('silence'), said('idle'), timer('silence')],
    kinds: ['say', 'finish'],
    effects: ['say idle (turn): Are you there?', 'say idle (turn): Still there?', 'say goodbye: Goodbye.'],
    state: reason,
    expected: 'silence_timeout',
  },
  {
    name: 'the silence clock running out on a caller mid-turn does nothing',
    given: inCall,
    when: [timer('silence', TALKING)],
    effects: [],
  },
  {
    name: 'after the ending, caller words are not answered',
    given: [...inCall, end('silence_timeout')],
    when: [turn('Wait, hello?')],
    effects: [],
  },
]);

const lookup = tool('lookup');
const FILLER = 'One moment while I take care of that.';
const round = [replyDone('', [lookup]), toolsDone([lookup])];

table('tools, transfers, end phrases', [
  {
    name: "a reply's tools run; the filler timer is armed",
    given: inCall,
    when: [replyDone('Let me check.', [lookup])],
    effects: ['arm tool-filler 1000', 'run_tools lookup'],
  },
  {
    name: 'tools still running at the filler timer: the filler line',
    given: [...inCall, replyDone('', [lookup])],
    when: [timer('tool-filler')],
    effects: [`say filler: ${FILLER}`],
  },
  {
    name: 'the tools name their own filler line',
    given: [...inCall, replyDone('', [lookup], QUIET, 'Checking the diary.')],
    when: [timer('tool-filler')],
    effects: ['say filler: Checking the diary.'],
  },
  {
    name: 'tools done: results to the model, which answers again',
    given: [...inCall, replyDone('', [lookup])],
    when: [toolsDone([lookup])],
    effects: ['cancel tool-filler', 'transcript tool: lookup ok', 'tool_result lookup: {"ok":true}', 'cancel silence', 'reply reply'],
  },
  {
    name: 'three rounds in a row, then "Too many tool calls" and the caller\'s turn',
    given: [...inCall, ...round, ...round, ...round],
    when: [replyDone('', [lookup])],
    effects: [
      'tool_result lookup: {"error":"Too many tool calls in a row. Answer the caller now."}',
      'cancel silence',
      'arm silence 10000',
    ],
  },
  {
    name: 'the caller speaking starts the rounds over',
    given: [...inCall, ...round, ...round, ...round, turn('Hello?')],
    when: [replyDone('', [lookup])],
    kinds: ['run_tools', 'tool_result'],
    effects: ['run_tools lookup'],
  },
  {
    name: 'end_call after words: recorded, the hang-up, no goodbye',
    given: inCall,
    when: [replyDone('Thanks, bye.', [tool('end_call')])],
    effects: ['transcript tool: end_call', 'record_end_call', ...claim, 'cancel goodbye', 'finish assistant_ended'],
  },
  {
    name: 'end_call with nothing said: the goodbye',
    given: inCall,
    when: [replyDone('', [tool('end_call')])],
    kinds: ['say', 'finish'],
    effects: ['say goodbye: Goodbye.'],
  },
  {
    name: 'transfer: the call is being transferred',
    given: inCall,
    when: [replyDone('Putting you through.', [tool('transfer')])],
    effects: ['transfer transfer'],
    state: reason,
    expected: 'transferred',
  },
  {
    name: 'a transfer that failed: the model learns it, the caller hears the line, the call goes on',
    given: [...inCall, replyDone('', [tool('transfer')])],
    when: [transferFailed(tool('transfer'))],
    effects: ['tool_result transfer: {"error":"The transfer failed."}', 'say reply: I could not reach the team.'],
    state: reason,
    expected: undefined,
  },
  {
    name: 'an end phrase: the hang-up after it',
    given: inCall,
    when: [replyDone('Great, talk soon!')],
    effects: [...claim, 'cancel goodbye', 'finish end_phrase'],
  },
  {
    name: "ordinary words: the caller's turn, the silence clock",
    given: inCall,
    when: [replyDone('How can I help?')],
    effects: ['cancel silence', 'arm silence 10000'],
  },
  { name: 'a reply done while more plays: the clock waits', given: inCall, when: [replyDone('How can I help?', [], AUDIBLE)], effects: [] },
]);

describe('after the hang-up', () => {
  // A fault after `finish` (a recogniser error before the carrier's stop) must not claim the ending
  // again: no fallback line to a call already hung up, and a voicemail's notices stay null.
  it.each([
    { name: 'a caller who hung up', set: BASE, given: [...inCall, end('caller_hung_up', false)], reason: 'caller_hung_up' },
    {
      name: 'a voicemail left',
      set: settings({ ...BASE, opening: { ...BASE.opening, screen: true }, voicemail: { ...BASE.voicemail, enabled: true } }),
      given: [start, amd('machine_end_beep'), said('voicemail')],
      reason: 'voicemail',
    },
  ])('a fault after $name changes nothing', ({ set, given, reason: before }) => {
    // Act
    const step = run(set, given, [fault()]);
    // Assert
    expect(step.effects).toEqual([]);
    expect(step.state.ending.reason).toBe(before);
  });
});
