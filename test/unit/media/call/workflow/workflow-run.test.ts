import { describe, expect, it, vi } from 'vitest';
import { parseCreateWorkflowBody, type Workflow } from '../../../../../shared/domain/workflow';
import { silentLogger } from '../../../../../shared/log';
import type { WorkflowHost } from '../../../../../media-service/src/call/workflow/node-type';
import { WorkflowRun } from '../../../../../media-service/src/call/workflow/workflow-run';

/** What a model is told at each node: the same to both modes (standard shapes requests, live steers its session). */

const ASK = { id: 'ask', type: 'collect', fields: [{ name: 'full_name', type: 'string' }], next: 'bye' };
const BYE = { id: 'bye', type: 'end', text: 'Goodbye!' };
const HELLO = { id: 'hello', type: 'say', text: 'Hello.', next: 'ask' };

function workflowOf(start: string, nodes: Record<string, unknown>[]): Workflow {
  return { id: 1, created_at: '', updated_at: '', ...parseCreateWorkflowBody({ name: 'W', start, nodes }) } as Workflow;
}

function runOf(workflow: Workflow) {
  const entered: string[] = [];
  const said: string[] = [];
  const host: WorkflowHost = {
    say: (text) => {
      said.push(text);
      return Promise.resolve();
    },
    runTool: () => Promise.resolve({ ok: true, output: {} }),
    transfer: () => undefined,
    end: () => Promise.resolve(),
  };
  const reply = vi.fn();
  const run: WorkflowRun = new WorkflowRun({
    workflow,
    host,
    reply,
    toolResult: () => undefined,
    settle: () => undefined,
    ending: () => false,
    entered: () => void entered.push(run.view().path.at(-1)!.node),
    callVariables: {},
    assistantVariables: {},
    now: () => 0,
    t0: 0,
    log: silentLogger,
    callId: 1,
  });
  return { run, entered, said, reply };
}

describe('WorkflowRun steering', () => {
  it('a talking start node steers before the call enters it: a reply made before the greeting follows it', () => {
    // Arrange
    const { run, entered } = runOf(workflowOf('ask', [ASK, BYE]));
    // Act
    const before = run.steering();
    const opened = run.open();
    // Assert
    expect(before?.instructions).toMatch(/^Workflow step "ask"\./);
    expect(before?.tool?.name).toBe('next_step');
    expect(run.steering()).toEqual(before);
    expect(opened).toBe(false);
    expect(entered).toEqual(['ask']);
  });

  it('an acting start node does not steer; entering each node is reported, and the talking one steers', async () => {
    // Arrange
    const { run, entered, said, reply } = runOf(workflowOf('hello', [HELLO, ASK, BYE]));
    // Act
    const before = run.steering();
    run.open();
    await vi.waitFor(() => expect(reply).toHaveBeenCalledOnce());
    // Assert
    expect(before).toBeUndefined();
    expect(said).toEqual(['Hello.']);
    expect(entered).toEqual(['hello', 'ask']);
    expect(run.steering()?.instructions).toMatch(/^Workflow step "ask"\./);
  });

  it('steers afresh once kept values change the fields still missing, and the same between turns', () => {
    // Arrange
    const { run } = runOf(workflowOf('ask', [{ ...ASK, fields: [...ASK.fields, { name: 'city', type: 'string' }] }, BYE]));
    run.open();
    const before = run.steering();
    // Act
    run.afterReply([{ id: 'c1', name: 'next_step', arguments: JSON.stringify({ step: 'bye', values: { city: 'Paris' } }) }]);
    const afterValues = run.steering();
    run.callerTurn();
    // Assert
    expect(before?.instructions).toContain('- city (string)');
    expect(afterValues?.instructions).not.toContain('- city (string)');
    expect(afterValues?.instructions).toContain('- full_name (string)');
    expect(run.steering()).toEqual(afterValues);
  });

  it('shape adds the steering as a second system message and next_step after the call tools', () => {
    // Arrange
    const { run } = runOf(workflowOf('ask', [ASK, BYE]));
    const steering = run.steering()!;
    // Act
    const shaped = run.shape({
      model: 'gpt-4.1-mini',
      temperature: 0.4,
      maxTokens: 300,
      priority: false,
      race: false,
      signal: new AbortController().signal,
      messages: [
        { role: 'system', content: 'Prompt.' },
        { role: 'user', content: 'Hi' },
      ],
      tools: [{ name: 'end_call', description: 'Hang up.', parameters: {} }],
    });
    // Assert
    expect(shaped.messages.map((message) => message.content)).toEqual(['Prompt.', steering.instructions, 'Hi']);
    expect(shaped.tools!.map((tool) => tool.name)).toEqual(['end_call', 'next_step']);
  });
});
