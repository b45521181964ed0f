import * as v from 'valibot';
import type { CallRecord } from '../../../../shared/db/call-repository';
import { defaultAssistantConfig, type AssistantConfig } from '../../../../shared/domain/assistant-config';
import type { EndedReason } from '../../../../shared/domain/call';
import type { CallScript } from '../../../../shared/domain/call-script';
import { CallMachine, type CallVoice, type VoiceEffect } from '../../../../media-service/src/call/call-machine';
import { newCounters } from '../../../../media-service/src/call/call-metrics';
import { DEFAULT_SESSION_TUNING } from '../../../../media-service/src/call/session-tuning';
import type { CallEvent, Facts, LineKind } from '../../../../media-service/src/call/rules/call-types';
import type { ConversationBaseDeps } from '../../../../media-service/src/call/session-types';
import { CallAllowance } from '../../../../media-service/src/tools/call-allowance';
import { ToolRunner } from '../../../../media-service/src/tools/tool-runner';
import type { BuiltinTool } from '../../../../media-service/src/tools/tool-types';
import { captureLogger } from '../../../support/capture-logger';
import { show, type Call } from './call-rules';
import { FakeClock } from './fake-clock';

/** A port these tests never reach: any use fails the test loudly. */
function unreachable<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: (_target, key) => {
      throw new Error(`${name}.${String(key)} is not part of this test`);
    },
  });
}

export interface MachineRigOptions {
  advanced?: Partial<AssistantConfig['advanced']>;
  script?: Partial<CallScript>;
  direction?: 'inbound' | 'outbound';
  tools?: BuiltinTool<any>[];
}

export const FALLBACK =
  "I'm sorry, I'm having technical trouble and can't continue right now. Please call back in a little while. Goodbye.";

/**
 * A {@link CallMachine} on a fake clock with the real {@link ToolRunner} and a fake voice: the voice
 * records each effect it is given as a string (`events`, with log lines as `log <message>`), and
 * answers `facts()` from the `facts` knobs. The test reports playback itself (`said`).
 */
export function machineRig(options: MachineRigOptions = {}) {
  const clock = new FakeClock();
  const events: string[] = [];
  const finished: EndedReason[] = [];
  const facts: Facts = { audible: false, speaking: false, replying: false, callerSpeaking: false };
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
  const machine = new CallMachine<Call>(deps, 'standard', undefined);
  const voice: CallVoice<Call> = {
    facts: () => ({ ...facts }),
    apply: (effect: VoiceEffect<Call>) => void events.push(show(effect)),
    workflowTransfer: () => {
      throw new Error('workflow transfers are not part of this test');
    },
  };
  machine.attach(voice);
  const now = (): Facts => ({ ...facts });
  const dispatch = (event: CallEvent<Call>) => machine.dispatch(event);
  return {
    clock,
    events,
    finished,
    facts,
    machine,
    tools,
    dispatch,
    /** Fixed words of `kind` played to the end (`cut`: cut short). */
    said: (kind: LineKind, cut = false) => dispatch({ type: 'said', kind, heard: !cut, cut, facts: now() }),
    /** A caller turn with `text` ended. */
    turn: (text: string) =>
      dispatch({
        type: 'end_of_turn',
        words: { text, startAt: clock.now(), endAt: clock.now() },
        turn: { endOfTurnAt: clock.now(), eager: false },
        gone: false,
        facts: now(),
      }),
    speech: () => dispatch({ type: 'speech_started', facts: now() }),
    /** Lets the tool runner's promises settle. */
    settle: async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

/** A test tool whose handler the test settles: `resolve`, `reject`, or never (a timeout). */
export function controlledTool(name = 'lookup', timeoutMs = 5000) {
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

export const lookup = (args: unknown = { q: 'boiler' }): Call => ({ id: 'c1', name: 'lookup', arguments: JSON.stringify(args) });
