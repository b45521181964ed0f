import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { step, type ScenarioStep } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_TEST_MS } from '../../support/call-limits';
import type { TenantClient } from '../../support/api-harness';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { strictResponseErrors } from '../../support/openapi-strict';
import { INTAKE, bookAndCheck, startInsuranceServer, callThrough as callWorkflow } from '../../support/workflow-calls';

type Json = Record<string, any>;

/** Thursday 26 November 2026, 09:00 in New York: the booking rules' "today", so the spoken date below stays in the future. */
const NOW = new Date('2026-11-26T14:00:00Z');

const wait = () => step.waitForAssistant({ quietMs: 1500, timeoutMs: 15_000 });
/** The intake caller, giving `visit` as the kind of visit, then `after` (what they say next, if anything). */
const intakeSteps = (visit: string, after: ScenarioStep[] = []): ScenarioStep[] => [
  wait(),
  step.say("It's Ada Lovelace."),
  wait(),
  step.say('March 4th, 1990.'),
  wait(),
  step.say(visit),
  wait(),
  ...after,
  step.hangup(),
];

let stack: CallStack;
let toolServer: Server;

beforeAll(async () => {
  [stack, toolServer] = await Promise.all([startCallStack({ clock: () => NOW }), startInsuranceServer()]);
});

afterAll(async () => {
  toolServer?.closeAllConnections();
  await Promise.all([stack?.stop(), new Promise((resolve) => toolServer?.close(resolve))]);
});

const T = { timeout: CALL_TEST_MS };

/** A workflow call on this file's stack (test/support/workflow-calls.ts). */
const callThrough = (
  workflow: Json,
  steps: readonly ScenarioStep[],
  prepare?: (tenant: TenantClient) => Promise<void>,
  advanced: Json = {},
) => callWorkflow(stack, workflow, steps, { ...(prepare && { prepare }), advanced });

describe.concurrent('workflows on a whole call', () => {
  it('intake, new patient: say, collect, branch, conversation and end, with the variables on the call', T, async () => {
    // Act
    const { call, said, nodes } = await callThrough(INTAKE, SANDBOX_SCENARIOS.intake.steps);
    // Assert
    expect(nodes).toEqual(['welcome', 'details', 'route', 'reason', 'wrap_up']);
    expect(call.workflow.variables).toEqual({ full_name: 'Ada Lovelace', date_of_birth: '1990-03-04', visit_type: 'new patient' });
    expect(said[0]).toBe("Thanks for calling Bright Smile Dental. I'll take a few details.");
    expect(said).toContain('Could I have your full name?');
    expect(said).toContain('Got it: full name Ada Lovelace. Could I have your date of birth?');
    expect(said).toContain('What brings you in today?');
    expect(said.at(-1)).toBe('Thanks Ada Lovelace, a new patient coordinator will call you back. Goodbye!');
    expect(call.ended_reason).toBe('assistant_ended');
    const at = call.workflow.path.map((p: Json) => p.at_ms);
    expect([...at].sort((a: number, b: number) => a - b)).toEqual(at);
    expect(strictResponseErrors('CallDetail', call)).toEqual([]);
  });

  it(
    'intake, check-up: the branch default ends the call with the collected name; the variables are redacted per advanced.redact',
    T,
    async () => {
      // Act
      const { call, said, nodes } = await callThrough(INTAKE, intakeSteps('Just a check-up please.'), undefined, { redact: ['dob'] });
      // Assert
      expect(nodes).toEqual(['welcome', 'details', 'route', 'checkup']);
      expect(call.workflow.variables).toEqual({ full_name: 'Ada Lovelace', date_of_birth: '[dob]', visit_type: 'check-up' });
      expect(said.at(-1)).toBe('Thanks Ada Lovelace, we will text you a check-up time. Goodbye!');
    },
  );

  it('intake, emergency: the transfer node says its line and transfers to its number', T, async () => {
    // Act
    const { call, said, nodes } = await callThrough(INTAKE, intakeSteps('This is an emergency!', [step.pause(3000)]));
    // Assert
    expect(nodes).toEqual(['welcome', 'details', 'route', 'urgent']);
    expect(said.at(-1)).toBe('Let me put you through to our emergency line.');
    expect(call.ended_reason).toBe('transferred');
    expect(call.transferred_to).toBe('+15550100777');
  });

  it('a caller dodging a collect: after its max_turns the call takes on_stuck', T, async () => {
    // Arrange
    const dodge = [
      wait(),
      step.say("I'd rather not say."),
      wait(),
      step.say('I really rather not say.'),
      wait(),
      step.say('Skip that.'),
      wait(),
    ];
    const details = { ...INTAKE.nodes[1], max_turns: 2 };
    // Act
    const { call, said, nodes } = await callThrough({ ...INTAKE, nodes: INTAKE.nodes.map((n) => (n.id === 'details' ? details : n)) }, [
      ...dodge,
      step.hangup(),
    ]);
    // Assert
    expect(nodes).toEqual(['welcome', 'details', 'callback']);
    expect(call.workflow.variables).toEqual({});
    expect(said.filter((line) => line === 'Sorry, I still need your full name. Could you tell me?')).toHaveLength(2);
    expect(said.at(-1)).toBe('No problem, someone from the team will call you back. Goodbye!');
  });

  it('tool nodes: book_appointment with arguments from the variables, then a custom tool, each result kept', T, async () => {
    // Arrange
    const url = `http://127.0.0.1:${(toolServer.address() as AddressInfo).port}/insurance`;
    const { workflow, steps } = bookAndCheck();
    // Act
    const { tenant, call, said, nodes } = await callThrough(workflow, steps, async (t) => {
      await stack.api.admin.setProfile(t.businessId, {
        timezone: 'America/New_York',
        booking: { services: [{ name: 'Cleaning', duration_min: 30 }] },
      });
      const tool = await t.request('POST', '/tools', {
        name: 'check_insurance',
        description: 'Checks whether a patient is insured.',
        server_url: url,
      });
      expect(tool.status).toBe(200);
    });
    // Assert
    expect(nodes).toEqual(['ask', 'book', 'insurance', 'booked']);
    expect(call.actions.map((a: Json) => [a.name, a.ok, a.arguments])).toEqual([
      ['book_appointment', true, { start: '2026-11-27T10:00', name: 'Sam Lee' }],
      ['check_insurance', true, { name: 'Sam Lee' }],
    ]);
    expect(call.workflow.variables.insurance).toEqual({ insured: true, plan: 'Gold' });
    expect(call.workflow.variables.book).toMatchObject({ booking_id: expect.any(Number) });
    expect(said.at(-1)).toBe('You are booked, Sam Lee. Your Gold plan covers it. Goodbye!');
    const bookings = (await (await tenant.request('GET', `/bookings?call_id=${call.id}`)).json()) as Json;
    expect(bookings.data).toHaveLength(1);
  });
});

describe.concurrent('the call rules hold at every node', () => {
  it('a barge-in cuts a say node; what the caller said waits for the collect, which takes it', T, async () => {
    // Act
    const { call, said, nodes } = await callThrough(INTAKE, [
      step.bargeIn('Hi, my name is Ada Lovelace.', { afterAssistantStartsMs: 800 }),
      // The cut line counts as the assistant having spoken: give the answer time to start.
      step.pause(3000),
      wait(),
      step.hangup(),
    ]);
    // Assert
    expect(call.transcript[0]).toMatchObject({ role: 'assistant', interrupted: true });
    expect(nodes).toEqual(['welcome', 'details']);
    expect(said).toContain('Got it: full name Ada Lovelace. Could I have your date of birth?');
  });

  it('a silent caller at a collect: the idle message, then the silence timeout ends the call', T, async () => {
    // Act
    const { call, said, nodes } = await callThrough(INTAKE, [step.silence()], undefined, {
      silence_timeout_s: 5,
      idle_messages: ['Are you still there?'],
      idle_max: 1,
      end_call_message: 'Goodbye for now.',
    });
    // Assert
    expect(call.ended_reason).toBe('silence_timeout');
    expect(nodes).toEqual(['welcome', 'details']);
    expect(said.slice(1)).toEqual(['Could I have your full name?', 'Are you still there?', 'Goodbye for now.']);
  });
});

describe('workflow_id on assistants', () => {
  it("accepts the business's own workflow only, in either mode, and a used workflow cannot be deleted until detached", T, async () => {
    // Arrange
    const [owner, other] = await Promise.all([stack.api.newTenant({ minutes: 10 }), stack.api.newTenant({ minutes: 10 })]);
    const workflow = (await (await owner.request('POST', '/workflows', INTAKE)).json()) as Json;
    // Act
    const foreign = await other.request('POST', '/assistants', { name: 'X', config: { workflow_id: workflow.id } });
    const live = (await (
      await owner.request('POST', '/assistants', { name: 'L', config: { workflow_id: workflow.id, mode: 'live' } })
    ).json()) as Json;
    const assistant = (await (
      await owner.request('POST', '/assistants', { name: 'A', config: { workflow_id: workflow.id } })
    ).json()) as Json;
    const refused = await owner.request('DELETE', `/workflows/${workflow.id}`);
    for (const id of [assistant.id, live.id]) await owner.request('PATCH', `/assistants/${id}`, { config: { workflow_id: null } });
    const deleted = await owner.request('DELETE', `/workflows/${workflow.id}`);
    // Assert
    expect(foreign.status).toBe(422);
    expect(((await foreign.json()) as Json).detail[0].loc).toEqual(['body', 'config', 'workflow_id']);
    expect(live.config).toMatchObject({ mode: 'live', workflow_id: workflow.id });
    expect(assistant.config.workflow_id).toBe(workflow.id);
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as Json;
    expect(body.code).toBe('workflow_in_use');
    expect(body.detail).toContain(String(assistant.id));
    expect(body.detail).toContain(String(live.id));
    expect(deleted.status).toBe(200);
  });
});
