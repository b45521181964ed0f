import { describe, expect, it } from 'vitest';
import { parseCreateWorkflowBody, type Workflow } from '../../../../../shared/domain/workflow';
import { steerRequest, workflowRules } from '../../../../../media-service/src/call/rules/workflow-slot';

/** What a model is told at each node: the same to both modes (standard shapes requests, live steers its session). */

const ASK = { id: 'ask', type: 'collect', fields: [{ name: 'full_name', type: 'string' }], next: 'bye' };
const BYE = { id: 'bye', type: 'end', text: 'Goodbye!' };
const HELLO = { id: 'hello', type: 'say', text: 'Hello.', next: 'ask' };

function workflowOf(start: string, nodes: Record<string, unknown>[]): Workflow {
  return { id: 1, created_at: '', updated_at: '', ...parseCreateWorkflowBody({ name: 'W', start, nodes }) } as Workflow;
}

const rulesOf = (workflow: Workflow) => workflowRules({ workflow, callVariables: {}, assistantVariables: {} });

describe('workflow steering', () => {
  it('a talking start node steers before the call enters it: a reply made before the greeting follows it', () => {
    // Arrange
    const rules = rulesOf(workflowOf('ask', [ASK, BYE]));
    // Act
    const before = rules.steering(rules.start);
    const opened = rules.reduce(rules.start, { type: 'open', atMs: 0 });
    // Assert
    expect(before?.instructions).toMatch(/^Workflow step "ask"\./);
    expect(before?.tool?.name).toBe('next_step');
    expect(rules.steering(opened.state)).toEqual(before);
    expect(opened.took).toBe(false);
    expect(opened.effects).toContainEqual({ type: 'entered', node: 'ask' });
  });

  it('an acting start node does not steer; each node entered is reported, and the talking one steers', () => {
    // Arrange
    const rules = rulesOf(workflowOf('hello', [HELLO, ASK, BYE]));
    // Act
    const before = rules.steering(rules.start);
    const opened = rules.reduce(rules.start, { type: 'open', atMs: 0 });
    const said = rules.reduce(opened.state, { type: 'said', atMs: 10 });
    // Assert
    expect(before).toBeUndefined();
    expect(opened.effects).toEqual([
      { type: 'entered', node: 'hello' },
      { type: 'say', text: 'Hello.' },
    ]);
    expect(said.effects).toEqual([{ type: 'entered', node: 'ask' }, { type: 'reply' }]);
    expect(rules.steering(said.state)?.instructions).toMatch(/^Workflow step "ask"\./);
  });

  it('steers afresh once kept values change the fields still missing, and reuses it between turns', () => {
    // Arrange
    const rules = rulesOf(workflowOf('ask', [{ ...ASK, fields: [...ASK.fields, { name: 'city', type: 'string' }] }, BYE]));
    const opened = rules.reduce(rules.start, { type: 'open', atMs: 0 }).state;
    const before = rules.steering(opened);
    // Act
    const call = { id: 'c1', name: 'next_step', arguments: JSON.stringify({ step: 'bye', values: { city: 'Paris' } }) };
    const refused = rules.reduce(opened, { type: 'reply_done', calls: [call], atMs: 5 }).state;
    const afterValues = rules.steering(refused);
    const turn = rules.reduce(refused, { type: 'caller_turn', atMs: 9 }).state;
    // Assert
    expect(before?.instructions).toContain('- city (string)');
    expect(afterValues?.instructions).not.toContain('- city (string)');
    expect(afterValues?.instructions).toContain('- full_name (string)');
    expect(rules.steering(turn)).toBe(afterValues);
  });

  it('steerRequest adds the steering as a second system message and next_step after the call tools', () => {
    // Arrange
    const rules = rulesOf(workflowOf('ask', [ASK, BYE]));
    const steering = rules.steering(rules.start)!;
    // Act
    const shaped = steerRequest(
      {
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
      },
      steering,
    );
    // Assert
    expect(shaped.messages.map((message) => message.content)).toEqual(['Prompt.', steering.instructions, 'Hi']);
    expect(shaped.tools!.map((tool) => tool.name)).toEqual(['end_call', 'next_step']);
  });
});
