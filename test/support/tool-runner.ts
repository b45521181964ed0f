import { realTimers } from '../../media-service/src/server/session-defaults';
import { CallAllowance } from '../../media-service/src/tools/call-allowance';
import { ToolRunner } from '../../media-service/src/tools/tool-runner';
import type { BuiltinTool, ToolContext, ToolPorts } from '../../media-service/src/tools/tool-types';
import { defaultAssistantConfig } from '../../shared/domain/assistant-config';
import { defaultBusinessProfile } from '../../shared/domain/business-profile';
import { silentLogger } from '../../shared/log';

/** Ports a tool test does not expect to be used: each rejects. */
export function unusedPorts(): ToolPorts {
  const unused = () => Promise.reject(new Error('not used'));
  return {
    messages: { leave: unused },
    team: { notify: unused },
    sms: { send: unused },
    email: { send: unused },
    bookings: {
      checkAvailability: unused,
      book: unused,
      findByPhone: unused,
      get: unused,
      getRecord: unused,
      cancel: unused,
      reschedule: unused,
    },
  };
}

/**
 * One call's tool runner over the given ports (real clock and timers, silent log): business 1,
 * call 2, the caller +14155550100 on the business's +15550100001 (a sandbox line: texts go to the
 * sandbox carrier, `smsSandbox`), a fresh allowance, the default profile and config, unless
 * `context` (or `ports`) says otherwise.
 */
export function runnerForTools(
  tools: readonly BuiltinTool<any>[],
  ports: Partial<ToolPorts>,
  context: Partial<Omit<ToolContext, 'signal' | 'ports'>> = {},
): ToolRunner {
  return new ToolRunner({
    tools,
    context: {
      businessId: 1,
      callId: 2,
      assistantId: 3,
      partyNumber: '+14155550100',
      businessNumber: '+15550100001',
      allowance: new CallAllowance(),
      profile: defaultBusinessProfile(),
      config: defaultAssistantConfig(),
      ...context,
      ports: { ...unusedPorts(), smsSandbox: true, ...ports },
    },
    now: () => performance.now(),
    t0: performance.now(),
    timers: realTimers,
    log: silentLogger,
  });
}
