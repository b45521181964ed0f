import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { step, type ScenarioStep } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_TEST_MS } from '../../support/call-limits';
import { carrierCall } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { INTAKE, bookAndCheck, startInsuranceServer, callThrough, type WorkflowCallOptions } from '../../support/workflow-calls';
import { fixedLines } from '../../../shared/domain/fixed-lines';

/**
 * What the assistant said, less the fillers: standard mode says one when the model's first words
 * are slow (a busy machine), live mode never does, so they are not part of the path compared.
 */
const FILLERS = new Set<string>(fixedLines('en').fillers);
const spoken = (said: readonly string[]) => said.filter((line) => !FILLERS.has(line));

/**
 * Workflows in live mode (docs/design.md "Workflows"): each whole call runs once per mode, and the
 * live one must take the standard one's path, with the same variables and tool calls. The sandbox
 * Realtime model walks the steps from the session's instructions and tools, as the sandbox chat
 * model does from each request.
 */

type Json = Record<string, any>;

/** Thursday 26 November 2026, 09:00 in New York: the booking rules' "today", so the spoken date below stays in the future. */
const NOW = new Date('2026-11-26T14:00:00Z');

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
const wait = () => step.waitForAssistant({ quietMs: 1500, timeoutMs: 15_000 });

/** The same call in standard and in live mode, side by side. */
async function bothModes(workflow: Json, steps: readonly ScenarioStep[], options: WorkflowCallOptions = {}) {
  const [standard, live] = await Promise.all([
    callThrough(stack, workflow, steps, options),
    callThrough(stack, workflow, steps, { ...options, mode: 'live' }),
  ]);
  return { standard, live };
}

/** The client events the sandbox Realtime endpoint received on the live call placed to `to`. */
function realtimeReceived(to: string): Json[] {
  const sid = carrierCall(stack, to).sid;
  const connection = stack.openai.realtime.connections.find((candidate) => candidate.tag === sid);
  if (!connection) throw new Error(`no realtime connection for ${sid}`);
  return connection.received;
}

describe.concurrent('workflows in live mode take the standard path', () => {
  it('intake, new patient: the same nodes, variables and lines; the session steered at each talking node', T, async () => {
    // Act
    const { standard, live } = await bothModes(INTAKE, SANDBOX_SCENARIOS.intake.steps);
    // Assert
    expect(live.call.metrics.providers.llm).toBe('openai-realtime-sandbox');
    expect(live.nodes).toEqual(['welcome', 'details', 'route', 'reason', 'wrap_up']);
    expect(live.nodes).toEqual(standard.nodes);
    expect(live.call.workflow.variables).toEqual({ full_name: 'Ada Lovelace', date_of_birth: '1990-03-04', visit_type: 'new patient' });
    expect(live.call.workflow.variables).toEqual(standard.call.workflow.variables);
    expect(spoken(live.said)).toEqual(spoken(standard.said));
    expect(live.call.ended_reason).toBe('assistant_ended');
    const steered = realtimeReceived(live.to)
      .filter((event) => event.type === 'session.update' && typeof event.session.instructions === 'string')
      .slice(1)
      .map((event) => ({
        step: /^Workflow step "([^"]+)"/m.exec(event.session.instructions)?.[1] ?? null,
        nextStep: event.session.tools.find((tool: Json) => tool.name === 'next_step')?.parameters.properties.step.enum ?? null,
      }));
    expect(steered).toEqual([
      { step: 'details', nextStep: ['route'] },
      { step: null, nextStep: null },
      { step: 'reason', nextStep: ['wrap_up'] },
      { step: null, nextStep: null },
    ]);
  });

  it('intake with the default notices on: the notice first, then the same path and variables', T, async () => {
    // Act
    const { standard, live } = await bothModes(INTAKE, SANDBOX_SCENARIOS.intake.steps, {
      advanced: { recording_notice: true, ai_disclosure: true },
    });
    // Assert
    expect(live.call.ai_disclosure_heard).toBe(true);
    expect(standard.call.ai_disclosure_heard).toBe(true);
    expect(live.nodes).toEqual(['welcome', 'details', 'route', 'reason', 'wrap_up']);
    expect(live.nodes).toEqual(standard.nodes);
    expect(live.call.workflow.variables).toEqual(standard.call.workflow.variables);
    expect(live.said.at(-1)).toBe('Thanks Ada Lovelace, a new patient coordinator will call you back. Goodbye!');
  });

  it('tool nodes: the same tool calls with arguments from the variables, and the same results kept', T, async () => {
    // Arrange
    const url = `http://127.0.0.1:${(toolServer.address() as AddressInfo).port}/insurance`;
    const { workflow, steps } = bookAndCheck();
    const prepare = async (tenant: Parameters<NonNullable<WorkflowCallOptions['prepare']>>[0]) => {
      await stack.api.admin.setProfile(tenant.businessId, {
        timezone: 'America/New_York',
        booking: { services: [{ name: 'Cleaning', duration_min: 30 }] },
      });
      const tool = await tenant.request('POST', '/tools', {
        name: 'check_insurance',
        description: 'Checks whether a patient is insured.',
        server_url: url,
      });
      expect(tool.status).toBe(200);
    };
    // Act
    const { standard, live } = await bothModes(workflow, steps, { prepare });
    // Assert
    const calls = (call: Json) => call.actions.map((a: Json) => [a.name, a.ok, a.arguments]);
    expect(live.nodes).toEqual(['ask', 'book', 'insurance', 'booked']);
    expect(live.nodes).toEqual(standard.nodes);
    expect(calls(live.call)).toEqual([
      ['book_appointment', true, { start: '2026-11-27T10:00', name: 'Sam Lee' }],
      ['check_insurance', true, { name: 'Sam Lee' }],
    ]);
    expect(calls(live.call)).toEqual(calls(standard.call));
    expect(live.call.workflow.variables.insurance).toEqual({ insured: true, plan: 'Gold' });
    expect(live.call.workflow.variables.book).toMatchObject({ booking_id: expect.any(Number) });
    expect(live.said.at(-1)).toBe('You are booked, Sam Lee. Your Gold plan covers it. Goodbye!');
  });

  it('intake, emergency: the transfer node says its line and transfers, the call given to the session first', T, async () => {
    // Arrange
    const steps = [
      wait(),
      step.say("It's Ada Lovelace."),
      wait(),
      step.say('March 4th, 1990.'),
      wait(),
      step.say('This is an emergency!'),
      wait(),
      step.pause(3000),
      step.hangup(),
    ];
    // Act
    const { standard, live } = await bothModes(INTAKE, steps);
    // Assert
    expect(live.nodes).toEqual(['welcome', 'details', 'route', 'urgent']);
    expect(live.nodes).toEqual(standard.nodes);
    expect(live.said.at(-1)).toBe('Let me put you through to our emergency line.');
    expect(live.call).toMatchObject({ ended_reason: 'transferred', transferred_to: '+15550100777' });
    expect(realtimeReceived(live.to)).toContainEqual(
      expect.objectContaining({
        type: 'conversation.item.create',
        item: expect.objectContaining({ type: 'function_call', name: 'transfer' }),
      }),
    );
  });

  it('the caller speaks first at a collect start: their first words are answered by the step', T, async () => {
    // Arrange
    const workflow = {
      name: 'Name first',
      start: 'ask',
      nodes: [
        { id: 'ask', type: 'collect', fields: [{ name: 'full_name', type: 'string' }], next: 'done' },
        { id: 'done', type: 'end', text: 'Thanks {{full_name}}, goodbye!' },
      ],
    };
    const steps = [step.say('My name is Sam Lee.'), wait(), step.hangup()];
    // Act
    const { standard, live } = await bothModes(workflow, steps, { config: { first_message_mode: 'wait_for_user' } });
    // Assert
    expect(live.nodes).toEqual(['ask', 'done']);
    expect(live.nodes).toEqual(standard.nodes);
    expect(live.call.workflow.variables).toEqual({ full_name: 'Sam Lee' });
    expect(spoken(live.said)).toEqual(spoken(standard.said));
  });
});
