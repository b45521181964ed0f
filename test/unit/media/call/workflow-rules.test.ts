import { describe, expect, it } from 'vitest';
import { MAX_WORKFLOW_PATH, type Workflow } from '../../../../shared/domain/workflow';
import {
  WORKFLOW_START,
  workflowSteering,
  workflowView,
  type WorkflowEffect,
  type WorkflowEvent,
  type WorkflowState,
} from '../../../../media-service/src/call/rules/workflow';
import {
  AT_ASK,
  CHAT,
  end,
  ending,
  entered,
  INTAKE,
  LOOP,
  MISSING,
  NEW_PATIENT,
  nextStep,
  open,
  REPLY,
  replied,
  result,
  run,
  said,
  say,
  settingsOf,
  SETTLE,
  stuck,
  TO_CHECK,
  TO_HUMAN,
  toolDone,
  transfer,
  turn,
  values,
} from '../support/workflow-table';

interface Case {
  name: string;
  workflow: Workflow;
  events: WorkflowEvent[];
  effects: WorkflowEffect[];
  /** Whether the run took each event. */
  took: boolean[];
  node?: string;
  variables?: Record<string, unknown>;
}

const CASES: Case[] = [
  // Opening: who speaks at the start node.
  {
    name: 'an acting start node replaces the greeting; once said, the model opens the talking node',
    workflow: INTAKE,
    events: [open, said],
    effects: [...entered('hello'), say('Hello Ada.'), ...entered('ask'), REPLY],
    took: [true, true],
    node: 'ask',
  },
  { name: 'a talking start node is opened by the greeting', workflow: AT_ASK, events: [open], effects: entered('ask'), took: [false] },
  {
    name: 'a caller who speaks first enters the talking start node, answered by the conversation',
    workflow: AT_ASK,
    events: [turn],
    effects: entered('ask'),
    took: [false],
  },
  // Each node type.
  {
    name: 'collect accepted: values kept, branch on them, the tool runs with them',
    workflow: AT_ASK,
    events: [open, values({ full_name: 'Ada', visit: 'New' })],
    effects: TO_CHECK,
    took: [false, true],
    node: 'check',
    variables: { full_name: 'Ada', visit: 'new' },
  },
  {
    name: 'tool ok: its result is a variable the next line reads, then the end says its words',
    workflow: AT_ASK,
    events: [open, NEW_PATIENT, toolDone(true, { day: 'Monday' }), said],
    effects: [...TO_CHECK, ...entered('booked'), say('Booked for Monday.'), ...entered('bye'), end('Goodbye, Ada.')],
    took: [false, true, true, true],
    variables: { full_name: 'Ada', visit: 'new', check: { day: 'Monday' } },
  },
  {
    name: 'tool error: on_error, a transfer that says its line first',
    workflow: AT_ASK,
    events: [open, NEW_PATIENT, toolDone(false, { error: 'down' }), said],
    effects: [...TO_CHECK, ...entered('sorry'), say('Let me get someone.'), transfer('+15005550006')],
    took: [false, true, true, true],
    node: 'sorry',
  },
  {
    name: 'a tool result over 2,000 characters keeps only whether it worked',
    workflow: AT_ASK,
    events: [open, NEW_PATIENT, toolDone(true, { day: 'x'.repeat(2000) })],
    effects: [...TO_CHECK, ...entered('booked'), say('Booked for {{check.day}}.')],
    took: [false, true, true],
    variables: { full_name: 'Ada', visit: 'new', check: { ok: true } },
  },
  {
    name: 'branch default: on to a talking node, where the model speaks first',
    workflow: AT_ASK,
    events: [open, values({ full_name: 'Ada', visit: 'check-up' })],
    effects: [...entered('ask'), result('ns', { ok: true, step: 'route' }), ...entered('route', 'reason'), REPLY],
    took: [false, true],
    node: 'reason',
  },
  // next_step.
  {
    name: 'next_step refused: its reason, and the model tries again; valid values are kept',
    workflow: AT_ASK,
    events: [open, values({ visit: 'new' })],
    effects: [
      ...entered('ask'),
      result('ns', { error: 'still missing: full_name (string). Ask the caller, then call next_step again.' }),
      REPLY,
    ],
    took: [false, true],
    node: 'ask',
    variables: { visit: 'new' },
  },
  {
    name: 'next_step refused twice in a row: stuck, on to on_stuck',
    workflow: AT_ASK,
    events: [open, values({}), values({})],
    effects: TO_HUMAN,
    took: [false, true, true],
    node: 'human',
  },
  {
    name: 'a caller turn between two refusals starts the count over',
    workflow: AT_ASK,
    events: [open, values({}), turn, values({})],
    effects: [...entered('ask'), result('ns', MISSING), REPLY, result('ns', MISSING), REPLY],
    took: [false, true, false, true],
    node: 'ask',
  },
  {
    name: "next_step goes first: the reply's other tool calls are not run",
    workflow: CHAT,
    events: [open, replied({ id: 'e1', name: 'end_call', arguments: '{}' }, nextStep({ step: 'bye' }))],
    effects: [
      ...entered('chat'),
      result('e1', { error: 'Not run: next_step came first.' }),
      result('ns', { ok: true, step: 'bye' }),
      ...entered('bye'),
      end(''),
    ],
    took: [false, true],
  },
  {
    name: 'a next_step to a step the node does not have is refused',
    workflow: CHAT,
    events: [open, replied(nextStep({ step: 'elsewhere' }))],
    effects: [...entered('chat'), result('ns', { error: 'step must be one of: bye.' }), REPLY],
    took: [false, true],
    node: 'chat',
  },
  {
    name: 'a next_step while no talking node is current: "There is no step to leave now."',
    workflow: INTAKE,
    events: [open, replied(nextStep({ step: 'route' }))],
    effects: [...entered('hello'), say('Hello Ada.'), result('ns', { error: 'There is no step to leave now.' }), SETTLE],
    took: [true, true],
    node: 'hello',
  },
  {
    name: 'a reply without next_step is the conversation’s',
    workflow: CHAT,
    events: [open, replied()],
    effects: entered('chat'),
    took: [false, false],
  },
  // Bounds.
  {
    name: 'max_turns: the turn after them is taken, and the node goes to on_stuck',
    workflow: AT_ASK,
    events: [open, turn, turn, turn],
    effects: [...entered('ask'), stuck('ask', 'human'), ...entered('human'), transfer(null)],
    took: [false, false, false, true],
    node: 'human',
  },
  {
    name: 'max_turns without on_stuck: the call ends with the end message, and later turns are taken',
    workflow: AT_ASK,
    events: [open, values({ full_name: 'Ada', visit: 'check-up' }), turn, turn, turn],
    effects: [
      ...entered('ask'),
      result('ns', { ok: true, step: 'route' }),
      ...entered('route', 'reason'),
      REPLY,
      stuck('reason', null),
      end(''),
    ],
    took: [false, true, false, true, true],
    node: 'reason',
  },
  {
    name: 'runaway: 25 acting nodes in a row end the call',
    workflow: LOOP,
    events: [open],
    effects: [...entered(...Array.from({ length: 25 }, (_, i) => (i % 2 === 0 ? 'b1' : 'b2'))), { type: 'runaway', node: 'b2' }, end('')],
    took: [true],
  },
  // Workflow step × interruption.
  {
    name: 'a caller turn while a say speaks is taken; the say cut short still moves on, and the talking node answers it',
    workflow: INTAKE,
    events: [open, turn, said],
    effects: [...entered('hello'), say('Hello Ada.'), ...entered('ask'), REPLY],
    took: [true, true, true],
    node: 'ask',
  },
  {
    name: 'a caller turn while a tool runs is taken; the tool’s result moves on',
    workflow: AT_ASK,
    events: [open, NEW_PATIENT, turn, toolDone(true, { day: 'Monday' })],
    effects: [...TO_CHECK, ...entered('booked'), say('Booked for Monday.')],
    took: [false, true, true, true],
    node: 'booked',
  },
  {
    name: 'the call ends while a tool runs: its result is kept, nothing more is entered or said',
    workflow: AT_ASK,
    events: [open, NEW_PATIENT, ending, toolDone(true, { day: 'Monday' })],
    effects: TO_CHECK,
    took: [false, true, false, true],
    node: 'check',
    variables: { full_name: 'Ada', visit: 'new', check: { day: 'Monday' } },
  },
  {
    name: 'the call ends while a transfer says its line: no transfer is tried',
    workflow: AT_ASK,
    events: [open, NEW_PATIENT, toolDone(false, {}), ending, said],
    effects: [...TO_CHECK, ...entered('sorry'), say('Let me get someone.')],
    took: [false, true, true, false, true],
  },
  {
    name: 'after the call ends, a caller turn is taken and does nothing',
    workflow: AT_ASK,
    events: [open, ending, turn],
    effects: entered('ask'),
    took: [false, false, true],
  },
  {
    name: 'the model cut short at a talking node (no next_step): the caller’s turn counts there, and the run stays',
    workflow: CHAT,
    events: [open, replied(), turn, replied(), turn],
    effects: entered('chat'),
    took: [false, false, false, false, false],
    node: 'chat',
  },
  {
    name: 'a said that no say waits for does nothing',
    workflow: CHAT,
    events: [open, said, toolDone(true, {})],
    effects: entered('chat'),
    took: [false, false, false],
    node: 'chat',
  },
  {
    name: 'a transfer node done (say a failed transfer): caller turns are the conversation’s again',
    workflow: AT_ASK,
    events: [open, values({}), values({}), turn],
    effects: TO_HUMAN,
    took: [false, true, true, false],
    node: 'human',
  },
];

describe('reduceWorkflow', () => {
  describe.each(CASES)('$name', ({ workflow, events, effects, took, node, variables }) => {
    it('has the expected effects', () => {
      // Act
      const outcome = run(workflow, events);
      // Assert
      expect(outcome.effects).toEqual(effects);
      expect(outcome.took).toEqual(took);
      if (node !== undefined) expect(outcome.state.node).toBe(node);
      if (variables !== undefined) expect(outcome.state.variables).toEqual(variables);
    });
  });

  it('counts turns at a talking node, and starts them over on entering one', () => {
    // Act
    const { state } = run(CHAT, [open, turn, turn]);
    // Assert
    expect(state.turns).toBe(2);
    expect(run(AT_ASK, [open, turn, values({ full_name: 'Ada', visit: 'check-up' })]).state.turns).toBe(0);
  });

  it('ends the call once the path reaches its bound', () => {
    // Arrange
    const path = Array.from({ length: MAX_WORKFLOW_PATH }, () => ({ node: 'chat', at_ms: 0 }));
    const from: WorkflowState = { ...WORKFLOW_START, node: 'chat', path };
    // Act
    const { effects, state } = run(CHAT, [replied(nextStep({ step: 'bye' }))], from);
    // Assert
    expect(effects).toEqual([result('ns', { ok: true, step: 'bye' }), { type: 'runaway', node: 'bye' }, end('')]);
    expect(state.ended).toBe(true);
  });

  it('records each node entered with its ms from the call start, rounded', () => {
    // Act
    const { state } = run(INTAKE, [
      { type: 'open', atMs: 12.4 },
      { type: 'said', atMs: 1530.6 },
    ]);
    // Assert
    expect(workflowView(settingsOf(INTAKE), state)).toEqual({
      id: 7,
      path: [
        { node: 'hello', at_ms: 12 },
        { node: 'ask', at_ms: 1531 },
      ],
      variables: {},
    });
  });
});

describe('workflowSteering', () => {
  it('steers at a talking start node before the call enters it, and lists the fields still missing', () => {
    // Arrange
    const settings = settingsOf(AT_ASK);
    // Act
    const before = workflowSteering(settings, WORKFLOW_START);
    const after = workflowSteering(settings, run(AT_ASK, [open, values({ visit: 'new' })]).state);
    // Assert
    expect(before?.instructions).toMatch(/^Workflow step "ask"\./);
    expect(before?.instructions).toContain('- visit (one of new, check-up)');
    expect(before?.tool?.name).toBe('next_step');
    expect(after?.instructions).not.toContain('- visit (');
    expect(after?.instructions).toContain('- full_name (string)');
  });

  it('does not steer at an acting node', () => {
    // Act / Assert
    expect(workflowSteering(settingsOf(INTAKE), WORKFLOW_START)).toBeUndefined();
    expect(workflowSteering(settingsOf(INTAKE), run(INTAKE, [open]).state)).toBeUndefined();
  });
});
