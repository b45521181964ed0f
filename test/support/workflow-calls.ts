import { createServer, type Server } from 'node:http';
import { expect } from 'vitest';
import { scenario, step, type ScenarioStep } from '../../media-service/src/sandbox/scenario-script';
import { uniqueNumber, type TenantClient } from './api-harness';
import { QUIET, getCall } from './call-scenarios';
import type { CallStack } from './call-stack';

type Json = Record<string, any>;

/** The README's intake flow: say, collect, a three-way branch, a conversation, a transfer and two ends. */
export const INTAKE = {
  name: 'New patient intake',
  start: 'welcome',
  nodes: [
    { id: 'welcome', type: 'say', text: "Thanks for calling Bright Smile Dental. I'll take a few details.", next: 'details' },
    {
      id: 'details',
      type: 'collect',
      fields: [
        { name: 'full_name', type: 'string', description: "The caller's full name" },
        { name: 'date_of_birth', type: 'date' },
        { name: 'visit_type', type: 'enum', options: ['new patient', 'check-up', 'emergency'] },
      ],
      next: 'route',
      max_turns: 6,
      on_stuck: 'callback',
    },
    {
      id: 'route',
      type: 'branch',
      cases: [
        { when: { var: 'visit_type', op: 'eq', value: 'emergency' }, to: 'urgent' },
        { when: { var: 'visit_type', op: 'eq', value: 'new patient' }, to: 'reason' },
      ],
      default: 'checkup',
    },
    {
      id: 'reason',
      type: 'conversation',
      prompt: 'Ask "What brings you in today?" and listen.',
      edges: [{ to: 'wrap_up', when: 'the caller mentions pain, teeth or a cleaning' }],
    },
    { id: 'urgent', type: 'transfer', number: '+15550100777', text: 'Let me put you through to our emergency line.' },
    { id: 'checkup', type: 'end', text: 'Thanks {{full_name}}, we will text you a check-up time. Goodbye!' },
    { id: 'wrap_up', type: 'end', text: 'Thanks {{full_name}}, a new patient coordinator will call you back. Goodbye!' },
    { id: 'callback', type: 'end', text: 'No problem, someone from the team will call you back. Goodbye!' },
  ],
};

/** What a workflow call is placed with besides its workflow and caller. */
export interface WorkflowCallOptions {
  /** Runs on the new tenant before the workflow is saved (a profile, custom tools). */
  prepare?: (tenant: TenantClient) => Promise<void>;
  /** `advanced` settings over {@link QUIET}. */
  advanced?: Json;
  /** The assistant's `mode` (default standard). */
  mode?: 'standard' | 'live';
  /** More of the assistant's `config` (`first_message_mode`…). */
  config?: Json;
}

/** A tenant with `workflow` on its assistant; calls a caller playing `steps` and returns the ended call. */
export async function callThrough(stack: CallStack, workflow: Json, steps: readonly ScenarioStep[], options: WorkflowCallOptions = {}) {
  const tenant = await stack.api.newTenant({ minutes: 100 });
  await options.prepare?.(tenant);
  const created = await tenant.request('POST', '/workflows', workflow);
  expect(created.status, await created.clone().text()).toBe(200);
  const workflowId = ((await created.json()) as { id: number }).id;
  const assistant = await tenant.request('POST', '/assistants', {
    name: 'Intake',
    template: 'receptionist',
    config: {
      first_message: 'Hello, Bright Smile Dental.',
      advanced: { ...QUIET, ...options.advanced },
      workflow_id: workflowId,
      ...(options.mode && { mode: options.mode }),
      ...options.config,
    },
  });
  expect(assistant.status, await assistant.clone().text()).toBe(200);
  const assistantId = ((await assistant.json()) as { id: number }).id;
  const to = uniqueNumber();
  stack.carrier.registerScenario(to, scenario(`workflow ${to}`, steps));
  const placed = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
  const callId = ((await placed.json()) as { id: number }).id;
  await stack.whenCallEnded(tenant.businessId, callId);
  const call = await getCall(tenant, callId);
  const said = (call.transcript as { role: string; text: string }[]).filter((e) => e.role === 'assistant').map((e) => e.text);
  return { tenant, workflowId, assistantId, to, call, said, nodes: (call.workflow?.path ?? []).map((p: Json) => p.node) };
}

/**
 * A workflow that collects a name and a day, books with `book_appointment`, then checks insurance
 * with the custom tool `check_insurance`; and the caller's steps through it. Run in both modes.
 */
export function bookAndCheck() {
  const wait = () => step.waitForAssistant({ quietMs: 1500, timeoutMs: 15_000 });
  const workflow = {
    name: 'Book and check',
    start: 'ask',
    nodes: [
      {
        id: 'ask',
        type: 'collect',
        fields: [
          { name: 'full_name', type: 'string' },
          { name: 'day', type: 'date' },
        ],
        next: 'book',
      },
      {
        id: 'book',
        type: 'tool',
        tool: 'book_appointment',
        args: { start: '{{day}}T10:00', name: '{{full_name}}' },
        on_success: 'insurance',
        on_error: 'sorry',
      },
      {
        id: 'insurance',
        type: 'tool',
        tool: 'check_insurance',
        args: { name: '{{full_name}}' },
        on_success: 'booked',
        on_error: 'sorry',
      },
      { id: 'booked', type: 'end', text: 'You are booked, {{full_name}}. Your {{insurance.plan}} plan covers it. Goodbye!' },
      { id: 'sorry', type: 'end', text: 'Sorry, that did not work. Goodbye!' },
    ],
  };
  const steps = [
    wait(),
    step.say('My name is Sam Lee.'),
    wait(),
    step.say('November 27th, 2026.'),
    step.waitForAssistant({ quietMs: 2500 }),
    step.hangup(),
  ];
  return { workflow, steps };
}

/** The custom tool `check_insurance`'s server on loopback: every request is answered `{insured: true, plan: 'Gold'}`. */
export async function startInsuranceServer(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ insured: true, plan: 'Gold' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
