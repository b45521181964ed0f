import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { CallRecord } from '../../../../shared/db/call-repository';
import { defaultAssistantConfig, type AssistantConfig } from '../../../../shared/domain/assistant-config';
import type { EndedReason } from '../../../../shared/domain/call';
import type { CallScript } from '../../../../shared/domain/call-script';
import { CallPolicy, type PolicyHooks } from '../../../../media-service/src/call/call-policy';
import { newCounters } from '../../../../media-service/src/call/call-metrics';
import { DEFAULT_SESSION_TUNING } from '../../../../media-service/src/call/call-session';
import type { ConversationBaseDeps } from '../../../../media-service/src/call/session-types';
import { FakeClock } from '../support/fake-clock';
import { CallAllowance } from '../../../../media-service/src/tools/call-allowance';
import { ToolRunner } from '../../../../media-service/src/tools/tool-runner';
import type { BuiltinTool } from '../../../../media-service/src/tools/tool-types';
import { captureLogger } from '../../../support/capture-logger';

type Call = { id: string; name: string; arguments: string };

/** A port these tests never reach: any use fails the test loudly. */
function unreachable<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: (_target, key) => {
      throw new Error(`${name}.${String(key)} is not part of this test`);
    },
  });
}

interface RigOptions {
  advanced?: Partial<AssistantConfig['advanced']>;
  script?: Partial<CallScript>;
  direction?: 'inbound' | 'outbound';
  tools?: BuiltinTool<any>[];
}

const FALLBACK = "I'm sorry, I'm having technical trouble and can't continue right now. Please call back in a little while. Goodbye.";

/**
 * A CallPolicy on a fake clock whose hooks play a conversation: they record what the policy asks
 * (`events`), `say` settles when the test calls `played()`, and `busy`/`audible` are test knobs.
 */
function rig(options: RigOptions = {}) {
  const clock = new FakeClock();
  const events: string[] = [];
  const finished: EndedReason[] = [];
  const state = { busy: false, audible: false };
  let release: () => void = () => undefined;
  const base = defaultAssistantConfig();
  const config: AssistantConfig = { ...base, advanced: { ...base.advanced, ...options.advanced } };
  const script: CallScript = {
    systemPrompt: 'You are a test.',
    firstMessage: 'Hello.',
    notice: '',
    endCallMessage: 'Goodbye.',
    idleMessages: ['Are you there?', 'Still there?'],
    voicemailMessage: 'Please call us back.',
    fallback: FALLBACK,
    fillers: ['One moment.'],
    transferFailed: "I'm sorry, I couldn't reach anyone on the team just now.",
    variables: {},
    ...options.script,
  };
  const call = { id: 7, business_id: 1, direction: options.direction ?? 'outbound' } as CallRecord;
  const { log } = captureLogger((line) => void events.push(`log ${line.message}`));
  const tools = new ToolRunner({
    tools: options.tools ?? [],
    context: {
      businessId: 1,
      callId: 7,
      assistantId: 3,
      partyNumber: '+15550100002',
      businessNumber: '+15550100001',
      allowance: new CallAllowance(),
      profile: null,
      config,
      ports: unreachable('ports'),
    },
    now: clock.now,
    t0: 0,
    timers: clock.timers,
    log,
  });
  const deps: ConversationBaseDeps = {
    context: { call, config, script, transferNumber: '', partyNumber: '+15550100002', tools: [], actionTools: [], profile: null },
    telephony: unreachable('telephony'),
    lifecycle: unreachable('lifecycle'),
    callSid: 'CA1',
    counters: newCounters(),
    tuning: DEFAULT_SESSION_TUNING,
    now: clock.now,
    timers: clock.timers,
    log,
    finish: (reason) => void finished.push(reason),
    t0: 0,
    tools,
  };
  const hooks: PolicyHooks<Call> = {
    silenceAssistant: () => void events.push('silence'),
    stopThinking: () => void events.push('stop thinking'),
    say: (kind, text) => {
      events.push(`say ${kind}: ${text}`);
      return new Promise<void>((resolve) => (release = resolve));
    },
    sayIdle: (text) => void events.push(`idle: ${text}`),
    busy: () => state.busy,
    audible: () => state.audible,
    bargeIn: () => void events.push('barge-in'),
    answerKeypad: (text, at) => void events.push(`keypad ${text} @${at}`),
    toolResult: (c, output) => void events.push(`tool ${c.id}: ${output}`),
    sayFiller: (text) => void events.push(`filler: ${text}`),
    replyAgain: () => void events.push('reply again'),
    sayReply: (text) => void events.push(`reply: ${text}`),
  };
  const policy = new CallPolicy<Call>(deps, hooks);
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  const played = async () => {
    release();
    await settle();
  };
  return { clock, events, finished, state, policy, played, settle, tools };
}

describe('CallPolicy ending', () => {
  it('endCall: the first reason wins; the goodbye plays before the session finishes', async () => {
    // Arrange
    const { events, finished, policy, played } = rig();
    // Act
    void policy.endCall('assistant_ended', { goodbye: true });
    void policy.endCall('end_phrase', { goodbye: false });
    const before = [...finished];
    await played();
    // Assert
    expect(before).toEqual([]);
    expect(events).toEqual(['stop thinking', 'say goodbye: Goodbye.']);
    expect(finished).toEqual(['assistant_ended']);
    expect(policy.pendingReason).toBe('assistant_ended');
  });

  it.each([
    ['max_duration silences the assistant before the goodbye', 'max_duration', ['stop thinking', 'silence', 'say goodbye: Goodbye.']],
    ['canceled silences the assistant before the goodbye', 'canceled', ['stop thinking', 'silence', 'say goodbye: Goodbye.']],
    ['silence_timeout lets it finish', 'silence_timeout', ['stop thinking', 'say goodbye: Goodbye.']],
  ] as const)('%s', (_name, reason, expected) => {
    // Arrange
    const { events, policy } = rig();
    // Act
    void policy.endCall(reason, { goodbye: true });
    // Assert
    expect(events).toEqual(expected);
  });

  it('a goodbye that never finishes playing is cut off after goodbyeMaxMs', async () => {
    // Arrange
    const { clock, finished, policy, settle } = rig();
    void policy.endCall('silence_timeout', { goodbye: true });
    // Act
    clock.advance(DEFAULT_SESSION_TUNING.goodbyeMaxMs - 1);
    await settle();
    const before = [...finished];
    clock.advance(1);
    await settle();
    // Assert
    expect(before).toEqual([]);
    expect(finished).toEqual(['silence_timeout']);
  });

  it('no end message: finishes at once, goodbye or not', () => {
    // Arrange
    const { events, finished, policy } = rig({ script: { endCallMessage: '' } });
    // Act
    void policy.endCall('assistant_ended', { goodbye: true });
    // Assert
    expect(events).toEqual(['stop thinking']);
    expect(finished).toEqual(['assistant_ended']);
  });

  it('a provider failure overrides a pending ending: fallback line, then error; a second failure is ignored', async () => {
    // Arrange
    const { events, finished, policy, played } = rig();
    void policy.endCall('assistant_ended', { goodbye: true });
    events.length = 0;
    // Act
    policy.fail(new Error('model down'), { voiceLost: false });
    policy.fail(new Error('again'), { voiceLost: false });
    await played();
    // Assert
    expect(events).toEqual(['log call.provider.failed', 'stop thinking', 'silence', `say goodbye: ${FALLBACK}`]);
    expect(policy.pendingReason).toBe('error');
    expect(finished[0]).toBe('error');
  });

  it.each([
    ['the voice is lost', { voiceLost: true }, {}],
    ['safety_fallback is off', { voiceLost: false }, { safety_fallback: false }],
  ] as const)('failure without a fallback line when %s', (_name, options, advanced) => {
    // Arrange
    const { events, finished, policy } = rig({ advanced });
    // Act
    policy.fail(new Error('gone'), options);
    // Assert
    expect(events).toEqual(['log call.provider.failed', 'stop thinking', 'silence']);
    expect(finished).toEqual(['error']);
  });
});

describe('CallPolicy silence and idle messages', () => {
  it('says each idle message after silence_timeout_s, then ends silence_timeout; caller words start them over', () => {
    // Arrange
    const { clock, events, policy } = rig({ advanced: { silence_timeout_s: 10, idle_max: 2 } });
    const silence = () => {
      policy.armSilence();
      clock.advance(10_000);
    };
    // Act
    silence();
    silence();
    policy.callerSpoke();
    silence();
    silence();
    silence();
    // Assert
    expect(events).toEqual([
      'idle: Are you there?',
      'idle: Still there?',
      'idle: Are you there?',
      'idle: Still there?',
      'stop thinking',
      'say goodbye: Goodbye.',
    ]);
    expect(policy.pendingReason).toBe('silence_timeout');
  });

  it('the clock waits while the conversation is busy, stops on cancelSilence, and never runs once the call is ending', () => {
    // Arrange
    const { clock, events, state, policy } = rig({ advanced: { silence_timeout_s: 10 } });
    // Act
    state.busy = true;
    policy.armSilence();
    clock.advance(20_000);
    state.busy = false;
    policy.armSilence();
    clock.advance(9_000);
    policy.cancelSilence();
    clock.advance(20_000);
    void policy.endCall('assistant_ended', { goodbye: false });
    policy.armSilence();
    clock.advance(20_000);
    // Assert
    expect(events).toEqual(['stop thinking']);
  });
});

describe('CallPolicy keypad', () => {
  it('gathers digits until # or a pause, logs the entry as the caller, and hands it over', () => {
    // Arrange
    const { clock, events, policy } = rig();
    // Act
    policy.press('1');
    policy.press('2');
    clock.advance(1000);
    policy.press('#');
    policy.press('9');
    clock.advance(DEFAULT_SESSION_TUNING.dtmfIdleMs);
    // Assert
    expect(events).toEqual(['keypad [keypad] 1 2 # @1000', `keypad [keypad] 9 @${1000 + DEFAULT_SESSION_TUNING.dtmfIdleMs}`]);
    expect(policy.transcript().map((entry) => [entry.role, entry.text])).toEqual([
      ['user', '[keypad] 1 2 #'],
      ['user', '[keypad] 9'],
    ]);
  });

  it.each([
    ['barges in over audible speech', 'anytime', true, ['barge-in', 'keypad [keypad] 5 # @0']],
    ['never barges in with interruptions never', 'never', true, ['keypad [keypad] 5 # @0']],
    ['has nothing to cut when the assistant is quiet', 'anytime', false, ['keypad [keypad] 5 # @0']],
  ] as const)('%s', (_name, interruptions, audible, expected) => {
    // Arrange
    const { events, state, policy } = rig({ advanced: { interruptions } });
    state.audible = audible;
    // Act
    policy.press('5');
    policy.press('#');
    // Assert
    expect(events).toEqual(expected);
  });

  it('a key press stops the silence clock; keys are ignored with keypad off or once the call is ending', () => {
    // Arrange
    const off = rig({ advanced: { keypad: false, silence_timeout_s: 10 } });
    const ending = rig();
    // Act
    off.policy.armSilence();
    off.policy.press('1');
    off.policy.press('#');
    off.clock.advance(10_000);
    ending.policy.armSilence();
    ending.policy.press('1');
    ending.clock.advance(DEFAULT_SESSION_TUNING.dtmfIdleMs);
    void ending.policy.endCall('assistant_ended', { goodbye: false });
    ending.policy.press('2');
    ending.policy.press('#');
    // Assert
    expect(off.events).toEqual(['idle: Are you there?']);
    expect(ending.events).toEqual(['keypad [keypad] 1 @1500', 'stop thinking']);
  });
});

describe('CallPolicy voicemail', () => {
  it('an AMD machine verdict takes the ending, stops every timer, leaves the message and ends voicemail', async () => {
    // Arrange
    const { clock, events, finished, policy, played } = rig({ advanced: { silence_timeout_s: 10 } });
    policy.armSilence();
    policy.press('1');
    // Act
    policy.onAmd('machine_end_beep');
    clock.advance(20_000);
    await played();
    // Assert
    expect(events).toEqual(['stop thinking', 'silence', 'say voicemail: Please call us back.']);
    expect(finished).toEqual(['voicemail']);
    expect(policy.voicemail.active).toBe(true);
  });

  it('a machine verdict after the call started ending for another reason changes nothing', () => {
    // Arrange
    const { events, policy } = rig();
    void policy.endCall('assistant_ended', { goodbye: false });
    // Act
    policy.onAmd('machine_end_beep');
    // Assert
    expect(events).toEqual(['stop thinking']);
    expect(policy.pendingReason).toBe('assistant_ended');
  });

  it('inbound calls never look for a machine', () => {
    // Arrange
    const { events, policy } = rig({ direction: 'inbound' });
    // Act
    policy.onAmd('machine_end_beep');
    // Assert
    expect(events).toEqual([]);
    expect(policy.pendingReason).toBeUndefined();
  });
});

describe('CallPolicy after a reply', () => {
  it.each([
    ['end_call after words: no goodbye', 'Thanks, bye.', [{ id: 'c1', name: 'end_call', arguments: '{}' }], 'assistant_ended', []],
    [
      'end_call with nothing said: the goodbye',
      '',
      [{ id: 'c1', name: 'end_call', arguments: '{}' }],
      'assistant_ended',
      ['say goodbye: Goodbye.'],
    ],
    ['an end phrase', 'Goodbye!', [], 'end_phrase', []],
  ] as const)('%s', (_name, text, calls, reason, said) => {
    // Arrange
    const { events, policy } = rig({ advanced: { end_call_phrases: ['goodbye'] } });
    // Act
    const handled = policy.afterReply(text, calls);
    // Assert
    expect(handled).toBe(true);
    expect(policy.pendingReason).toBe(reason);
    expect(events.filter((event) => event.startsWith('say'))).toEqual(said);
  });

  it('ordinary words: the conversation goes on; the notice stays due until it is heard', () => {
    // Arrange
    const { policy } = rig({ script: { notice: 'This call is recorded.' } });
    // Act
    const handled = policy.afterReply('How can I help?', []);
    // Assert
    expect(handled).toBe(false);
    expect([policy.notice.text, policy.notice.due]).toEqual(['This call is recorded.', true]);
  });
});

/** A test tool whose handler the test settles: `resolve`, `reject`, or never (a timeout). */
function controlledTool(name = 'lookup', timeoutMs = 5000) {
  const control: { resolve?: (value: { output: Record<string, unknown>; summary: string }) => void; reject?: (error: Error) => void } = {};
  const tool: BuiltinTool<{ q: string }> = {
    offeredBy: 'takeMessage',
    definition: { name, description: 'Looks up.', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
    args: v.strictObject({ q: v.pipe(v.string(), v.minLength(1)) }),
    timeoutMs,
    unavailable: 'The lookup system did not answer.',
    execute: () =>
      new Promise((resolve, reject) => {
        control.resolve = resolve;
        control.reject = reject;
      }),
  };
  return { tool, control };
}

const lookup = (args: unknown = { q: 'boiler' }) => ({ id: 'c1', name: 'lookup', arguments: JSON.stringify(args) });

describe('CallPolicy tools', () => {
  it('runs a tool, gives the model its output and asks again; the action is recorded', async () => {
    // Arrange
    const { tool, control } = controlledTool();
    const { events, policy, clock, settle, tools } = rig({ tools: [tool] });
    // Act
    const handled = policy.afterReply('Let me check.', [lookup()]);
    const running = policy.toolsRunning;
    clock.advance(300);
    control.resolve!({ output: { found: 2 }, summary: '2 found' });
    await settle();
    // Assert
    expect(handled).toBe(true);
    expect(running).toBe(true);
    expect(policy.toolsRunning).toBe(false);
    expect(events).toEqual(['tool c1: {"found":2}', 'reply again']);
    expect(tools.actions()).toEqual([
      { name: 'lookup', arguments: { q: 'boiler' }, ok: true, result: '2 found', error: null, at_ms: 0, duration_ms: 300 },
    ]);
  });

  it('a tool still running after toolFillerAfterMs gets one filler', async () => {
    // Arrange
    const { tool, control } = controlledTool();
    const { events, policy, clock, settle } = rig({ tools: [tool] });
    // Act
    policy.afterReply('', [lookup()]);
    clock.advance(999);
    const before = [...events];
    clock.advance(1);
    control.resolve!({ output: {}, summary: 'done' });
    await settle();
    // Assert
    expect(before).toEqual([]);
    expect(events).toEqual(['filler: One moment while I take care of that.', 'tool c1: {}', 'reply again']);
  });

  it('a tool that times out: the model is told in plain words, and the action records the error', async () => {
    // Arrange
    const { tool } = controlledTool('lookup', 2000);
    const { events, policy, clock, settle, tools } = rig({ tools: [tool] });
    // Act
    policy.afterReply('', [lookup()]);
    clock.advance(2000);
    await settle();
    // Assert
    expect(events).toEqual([
      'filler: One moment while I take care of that.',
      'log call.tool.timeout',
      'tool c1: {"error":"The lookup system did not answer."}',
      'reply again',
    ]);
    expect(tools.actions()[0]).toMatchObject({ ok: false, result: '', error: 'The lookup system did not answer.', duration_ms: 2000 });
  });

  it.each([
    ['a failing back end', { q: 'x' }, 'The lookup system did not answer.'],
    [
      'invalid arguments',
      { q: '' },
      'The arguments were not valid (q: String should have at least 1 character). Ask the caller, then call the tool again.',
    ],
    [
      'an unknown field',
      { q: 'x', secret: 1 },
      'The arguments were not valid (secret: Extra inputs are not permitted). Ask the caller, then call the tool again.',
    ],
  ])('%s: the model hears the error and is asked again', async (_name, args, error) => {
    // Arrange
    const { tool, control } = controlledTool();
    const { events, policy, settle, tools } = rig({ tools: [tool] });
    // Act
    policy.afterReply('', [lookup(args)]);
    control.reject?.(new Error('connection reset'));
    await settle();
    // Assert
    expect(events.filter((event) => !event.startsWith('log'))).toEqual([`tool c1: ${JSON.stringify({ error })}`, 'reply again']);
    expect(tools.actions()[0]).toMatchObject({ name: 'lookup', ok: false, error });
  });

  it('tools this call does not offer are answered "not available" three rounds in a row, then the caller is answered', async () => {
    // Arrange
    const { events, policy, settle, tools } = rig();
    const calls = [{ id: 'c1', name: 'book', arguments: '{}' }];
    // Act
    const rounds: boolean[] = [];
    for (let round = 0; round < 4; round++) {
      rounds.push(policy.afterReply('', calls));
      await settle();
    }
    // Assert
    expect(rounds).toEqual([true, true, true, false]);
    const round = ['tool c1: {"error":"The tool book is not available on this call."}', 'reply again'];
    expect(events).toEqual([...round, ...round, ...round, 'tool c1: {"error":"Too many tool calls in a row. Answer the caller now."}']);
    expect(tools.actions()).toHaveLength(3);
  });

  it('the caller speaking starts the tool rounds over', async () => {
    // Arrange
    const { policy, settle } = rig();
    const calls = [{ id: 'c1', name: 'book', arguments: '{}' }];
    for (let round = 0; round < 3; round++) policy.afterReply('', calls);
    await settle();
    // Act
    policy.callerSpoke();
    const handled = policy.afterReply('', calls);
    // Assert
    expect(handled).toBe(true);
  });

  it('a call that ends while a tool runs: the tool is aborted and nothing more is asked of the model', async () => {
    // Arrange
    const { tool } = controlledTool();
    let aborted = false;
    tool.execute = (_args, context) =>
      new Promise((_, reject) => context.signal.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted')))));
    const { events, policy, settle, tools } = rig({ tools: [tool] });
    // Act
    policy.afterReply('', [lookup()]);
    void policy.endCall('caller_hung_up', { goodbye: false });
    tools.close();
    await settle();
    // Assert
    expect(aborted).toBe(true);
    expect(events.filter((event) => event.startsWith('tool') || event === 'reply again')).toEqual([]);
    expect(tools.actions()[0]).toMatchObject({ ok: false, error: 'The lookup system did not answer.' });
  });

  it('end_call is recorded as an action', () => {
    // Arrange
    const { policy, tools } = rig();
    // Act
    policy.afterReply('Bye.', [{ id: 'c9', name: 'end_call', arguments: '' }]);
    // Assert
    expect(tools.actions()).toEqual([
      { name: 'end_call', arguments: {}, ok: true, result: 'call ended', error: null, at_ms: 0, duration_ms: 0 },
    ]);
  });
});
