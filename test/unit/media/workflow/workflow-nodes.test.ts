import { describe, expect, it } from 'vitest';
import type { NodeOf } from '../../../../shared/domain/workflow';
import type { ChatRequest } from '../../../../media-service/src/sandbox/openai-wire';
import { SandboxLlmScript } from '../../../../media-service/src/sandbox/sandbox-llm-script';
import type { RunState, TalkingNode } from '../../../../media-service/src/call/workflow/node-type';
import { holds } from '../../../../media-service/src/call/workflow/nodes/branch';
import { collectNode } from '../../../../media-service/src/call/workflow/nodes/collect';
import { conversationNode } from '../../../../media-service/src/call/workflow/nodes/conversation';
import { toolArguments } from '../../../../media-service/src/call/workflow/nodes/tool';

function runState(variables: Record<string, unknown> = {}): RunState {
  return {
    variables,
    value: (name) => variables[name],
    fill: (text) => text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in variables ? String(variables[name]) : whole)),
  };
}

const COLLECT: NodeOf<'collect'> = {
  id: 'details',
  type: 'collect',
  prompt: '',
  fields: [
    { name: 'full_name', type: 'string', description: '', required: true },
    { name: 'date_of_birth', type: 'date', description: '', required: true },
    { name: 'visit_type', type: 'enum', description: '', required: true, options: ['new patient', 'check-up'] },
    { name: 'age', type: 'number', description: '', required: false },
  ],
  next: 'route',
  on_stuck: null,
};

const CHAT: NodeOf<'conversation'> = {
  id: 'reason',
  type: 'conversation',
  prompt: 'Ask "What brings you in today?" and listen.',
  edges: [
    { to: 'billing', when: 'the caller asks about an invoice or payment' },
    { to: 'other', when: 'otherwise' },
  ],
  final: false,
  on_stuck: null,
};

type Message = ChatRequest['messages'][number];
const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });

/** What the sandbox model answers at `node`, the request built by the node's own hooks as the engine builds it. */
function sandboxAt<N extends NodeOf<'collect'> | NodeOf<'conversation'>>(behaviour: TalkingNode<N>, node: N, messages: Message[]) {
  const tool = behaviour.stepTool(node)!;
  return new SandboxLlmScript().reply({
    model: 'gpt-4.1-mini',
    messages: [
      { role: 'system', content: 'You are a receptionist.' },
      { role: 'system', content: behaviour.instructions(node, runState()) },
      ...messages,
    ],
    tools: [{ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }],
  });
}

const collect = collectNode as unknown as TalkingNode<NodeOf<'collect'>>;
const chat = conversationNode as unknown as TalkingNode<NodeOf<'conversation'>>;

describe('the sandbox model in a collect step', () => {
  it('asks for the first field, then takes each answer in its type and confirms it', () => {
    // Act
    const opening = sandboxAt(collect, COLLECT, []);
    const second = sandboxAt(collect, COLLECT, [assistant('Could I have your full name?'), user("It's Ada Lovelace.")]);
    // Assert
    expect(opening).toEqual({ text: 'Could I have your full name?' });
    expect(second).toEqual({ text: 'Got it: full name Ada Lovelace. Could I have your date of birth?' });
  });

  it('calls next_step with every value once the required ones are there', () => {
    // Act
    const answer = sandboxAt(collect, COLLECT, [
      assistant('Could I have your full name?'),
      user('My name is Ada Lovelace.'),
      assistant('Got it: full name Ada Lovelace. Could I have your date of birth?'),
      user('4th of March, 1990'),
      assistant('Got it: date of birth 1990-03-04. Could I have your visit type?'),
      user("I'm a new patient."),
    ]);
    // Assert
    expect(answer.toolCalls).toEqual([
      {
        name: 'next_step',
        arguments: JSON.stringify({
          step: 'route',
          values: { full_name: 'Ada Lovelace', date_of_birth: '1990-03-04', visit_type: 'new patient' },
        }),
      },
    ]);
  });

  it('gives an answer to a question cut short (or never asked) to the first field missing', () => {
    // Act
    const answer = sandboxAt(collect, COLLECT, [assistant('Thanks for calling. Could'), user("It's Ada Lovelace.")]);
    // Assert
    expect(answer).toEqual({ text: 'Got it: full name Ada Lovelace. Could I have your date of birth?' });
  });

  it('takes nothing from a dodge, and asks again', () => {
    // Act
    const answer = sandboxAt(collect, COLLECT, [assistant('Could I have your full name?'), user("I'd rather not say.")]);
    // Assert
    expect(answer).toEqual({ text: 'Sorry, I still need your full name. Could you tell me?' });
  });
});

describe('the sandbox model in a conversation step', () => {
  it('opens with the quoted sentence of the prompt, leaves by a shared word, else by "otherwise"', () => {
    // Act
    const opening = sandboxAt(chat, CHAT, []);
    const billing = sandboxAt(chat, CHAT, [user('I have a question about my last invoice.')]);
    const other = sandboxAt(chat, CHAT, [user('Just wondering about parking.')]);
    // Assert
    expect(opening).toEqual({ text: 'What brings you in today?' });
    expect(billing.toolCalls).toEqual([{ name: 'next_step', arguments: '{"step":"billing"}' }]);
    expect(other.toolCalls).toEqual([{ name: 'next_step', arguments: '{"step":"other"}' }]);
  });
});

describe('collect values from the model', () => {
  it('keeps valid values by type, and names what is missing or invalid', () => {
    // Arrange
    const run = runState();
    // Act
    const outcome = collect.accept(COLLECT, { step: 'route', values: { full_name: ' Ada ', date_of_birth: '1990-13-45', age: '36' } }, run);
    // Assert
    expect(run.variables).toEqual({ full_name: 'Ada', age: 36 });
    expect(outcome).toEqual({
      error:
        'not valid: date_of_birth (date); still missing: date_of_birth (date), visit_type (one of new patient, check-up). Ask the caller, then call next_step again.',
    });
    expect(collect.accept(COLLECT, { step: 'route', values: { date_of_birth: '1990-03-04', visit_type: 'New Patient' } }, run)).toEqual({
      to: 'route',
    });
    expect(run.variables.visit_type).toBe('new patient');
  });

  it('offers next_step with step as an enum of the exits and a typed values schema', () => {
    // Act
    const tool = collect.stepTool(COLLECT)!;
    const chatTool = chat.stepTool(CHAT)!;
    // Assert
    expect(tool.parameters).toMatchObject({
      properties: { step: { enum: ['route'] }, values: { required: ['full_name', 'date_of_birth', 'visit_type'] } },
      required: ['step', 'values'],
    });
    expect((chatTool.parameters as any).properties.step.enum).toEqual(['billing', 'other']);
    expect(chat.accept(CHAT, { step: 'elsewhere' }, runState())).toEqual({ error: 'step must be one of: billing, other.' });
  });
});

describe('branch conditions', () => {
  it.each<[string, Parameters<typeof holds>[0], unknown, boolean]>([
    ['eq, any case', { var: 'v', op: 'eq', value: 'Emergency' }, 'emergency', true],
    ['eq, numbers', { var: 'v', op: 'eq', value: 3 }, '3', true],
    ['ne', { var: 'v', op: 'ne', value: 'a' }, 'b', true],
    ['ne, not collected', { var: 'v', op: 'ne', value: 'a' }, undefined, true],
    ['gt, numbers', { var: 'v', op: 'gt', value: 9 }, 10, true],
    ['lt, dates', { var: 'v', op: 'lt', value: '2000-01-01' }, '1990-03-04', true],
    ['exists', { var: 'v', op: 'exists' }, '', false],
    ['in', { var: 'v', op: 'in', value: ['a', 'b'] }, 'B', true],
    ['eq, not collected', { var: 'v', op: 'eq', value: 'a' }, undefined, false],
  ])('%s', (_name, when, value, expected) => {
    expect(holds(when, value)).toBe(expected);
  });
});

describe('tool node arguments', () => {
  it('fills texts from the variables, a lone {{name}} keeping its type', () => {
    // Act
    const args = toolArguments({ start: '{{day}}T10:00', party: '{{size}}', name: '{{who}}' }, runState({ day: '2026-11-27', size: 4 }));
    // Assert
    expect(args).toEqual({ start: '2026-11-27T10:00', party: 4, name: '{{who}}' });
  });
});
