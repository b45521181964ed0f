import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../shared/db/call-repository';
import { defaultAssistantConfig, type AssistantConfig } from '../../../../shared/domain/assistant-config';
import type { EndedReason } from '../../../../shared/domain/call';
import type { CallScript } from '../../../../shared/domain/call-script';
import { CallPolicy, type PolicyHooks } from '../../../../media-service/src/call/call-policy';
import { newCounters } from '../../../../media-service/src/call/call-metrics';
import { DEFAULT_SESSION_TUNING } from '../../../../media-service/src/call/call-session';
import type { ConversationBaseDeps } from '../../../../media-service/src/call/session-types';
import { FakeClock } from '../support/fake-clock';
import { captureLogger } from '../../../support/capture-logger';

type Call = { id: string; name: string };

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
    ...options.script,
  };
  const call = { id: 7, business_id: 1, direction: options.direction ?? 'outbound' } as CallRecord;
  const deps: ConversationBaseDeps = {
    context: { call, config, script, transferNumber: '', partyNumber: '+15550100002', tools: [] },
    telephony: unreachable('telephony'),
    lifecycle: unreachable('lifecycle'),
    callSid: 'CA1',
    counters: newCounters(),
    tuning: DEFAULT_SESSION_TUNING,
    now: clock.now,
    timers: clock.timers,
    log: captureLogger((line) => void events.push(`log ${line.message}`)).log,
    finish: (reason) => void finished.push(reason),
    t0: 0,
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
    toolError: (c, error) => void events.push(`tool ${c.id}: ${error}`),
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
  return { clock, events, finished, state, policy, played, settle };
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
    ['end_call after words: no goodbye', 'Thanks, bye.', [{ id: 'c1', name: 'end_call' }], 'assistant_ended', []],
    ['end_call with nothing said: the goodbye', '', [{ id: 'c1', name: 'end_call' }], 'assistant_ended', ['say goodbye: Goodbye.']],
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

  it('tools this call does not run are answered twice, then the conversation goes on', () => {
    // Arrange
    const { events, policy } = rig();
    const calls = [{ id: 'c1', name: 'book' }];
    // Act
    const rounds = [policy.afterReply('', calls), policy.afterReply('', calls), policy.afterReply('', calls)];
    // Assert
    expect(rounds).toEqual([true, true, false]);
    const round = ['tool c1: The tool book is not available on this call.', 'reply again'];
    expect(events).toEqual([...round, ...round]);
  });

  it('ordinary words: the conversation goes on; the notice is given out once', () => {
    // Arrange
    const { policy } = rig({ script: { notice: 'This call is recorded.' } });
    // Act
    const handled = policy.afterReply('How can I help?', []);
    const notices = [policy.takeNotice(), policy.takeNotice()];
    // Assert
    expect(handled).toBe(false);
    expect(notices).toEqual(['This call is recorded.', undefined]);
  });
});
