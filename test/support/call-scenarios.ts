import { expect } from 'vitest';
import { scenario, step, type ScenarioStep } from '../../media-service/src/sandbox/scenario-script';
import type { SandboxCallRecord } from '../../media-service/src/sandbox/carrier-types';
import type { ReceivedLlmRequest } from '../../media-service/src/sandbox/openai-server';
import { uniqueNumber, type TenantClient } from './api-harness';
import type { CallStack } from './call-stack';

/** Notices off unless a test is about them: transcripts stay short and exact. */
export const QUIET = { recording_notice: false, ai_disclosure: false };

/** A tenant with one assistant: `config` over the defaults (a given config replaces the template's; `templateConfig` gives its greeting and settings). */
export async function tenantWithAssistant(stack: CallStack, config: Record<string, unknown>) {
  const tenant = await stack.api.newTenant({ minutes: 100 });
  const created = await tenant.request('POST', '/assistants', { name: 'Test', template: 'receptionist', config });
  expect(created.status, await created.clone().text()).toBe(200);
  const assistant = (await created.json()) as { id: number };
  return { tenant, assistantId: assistant.id };
}

/** Registers a scripted callee on a fresh number and places an outbound call to it through the API. */
export async function callScripted(
  stack: CallStack,
  config: Record<string, unknown>,
  steps: readonly ScenarioStep[],
  variables: Record<string, string> = {},
) {
  const to = uniqueNumber();
  stack.carrier.registerScenario(to, scenario(`test ${to}`, steps));
  return placeCall(stack, config, to, variables);
}

/** Places an outbound call to `to` through the API (POST /calls → SQS → dialler). */
export async function placeCall(stack: CallStack, config: Record<string, unknown>, to: string, variables: Record<string, string> = {}) {
  const { tenant, assistantId } = await tenantWithAssistant(stack, config);
  const response = await tenant.request('POST', '/calls', { assistant_id: assistantId, to, variables });
  expect(response.status, await response.clone().text()).toBe(200);
  const call = (await response.json()) as { id: number };
  return { tenant, callId: call.id, to, assistantId };
}

/** The sandbox carrier's record of the call we placed to `to`. */
export function carrierCall(stack: CallStack, to: string): SandboxCallRecord {
  const found = stack.carrier.calls().find((call) => call.to === to);
  if (!found) throw new Error(`no sandbox call to ${to}`);
  return found;
}

/** LLM requests that carried this call's conversation (matched on a user line only this call has). */
export function llmRequestsWith(stack: CallStack, marker: string): ReceivedLlmRequest[] {
  return stack.openai.requests.filter((request) => JSON.stringify(request.body ?? {}).includes(marker));
}

/** The default wait after the assistant speaks, short enough for tests, longer than a pause between sentences. */
export const waitForAssistant = () => step.waitForAssistant({ quietMs: 700, timeoutMs: 15_000 });

/** A callee who says goodbye and lets the assistant end the call (`assistant_ended`, by `end_call`). */
export const endedByAssistant = () => [
  waitForAssistant(),
  step.say('That is all I needed, thank you. Goodbye!'),
  waitForAssistant(),
  step.pause(3000),
  step.hangup(),
];

/** A callee who hangs up right after a few words (`caller_hung_up`). */
/** A caller who asks one question, thanks the assistant and hangs up. */
export const shortTalk = () =>
  scenario('short talk', [
    waitForAssistant(),
    step.say('Are you open today?'),
    waitForAssistant(),
    step.say('Thanks, bye!'),
    step.hangup(),
  ]);

export const endedByCaller = () => [waitForAssistant(), step.say('Sorry, wrong number.'), step.hangup()];

/** The call's API view (GET /calls/{id}). */
export async function getCall(tenant: TenantClient, callId: number): Promise<Record<string, any>> {
  const response = await tenant.request('GET', `/calls/${callId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
}
