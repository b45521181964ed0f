import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../../media-service/src/sandbox/openai-wire';
import { SANDBOX_SCENARIOS } from '../../../../media-service/src/sandbox/scenarios';
import { SandboxLlmScript } from '../../../../media-service/src/sandbox/sandbox-llm-script';

type Message = ChatRequest['messages'][number];

const tool = (name: string, description: string, parameters: Record<string, unknown>) => ({
  type: 'function' as const,
  function: { name, description, parameters },
});

/** What a call with a knowledge base and the README's `lookup_order` offers the model. */
const TOOLS = [
  tool('search_knowledge', "Search the business's documents for what the caller asked.", {
    type: 'object',
    properties: { query: { type: 'string' } },
    required: ['query'],
  }),
  tool('lookup_order', "Looks up an order's status and delivery date by its order id.", {
    type: 'object',
    properties: { order_id: { type: 'string', pattern: '^[A-Z]{2}[0-9]{4}$' } },
    required: ['order_id'],
  }),
  tool('end_call', 'Ends the call.', { type: 'object', properties: {} }),
];

/** What each tool answers on this call. */
const OUTPUTS: Record<string, unknown> = {
  search_knowledge: {
    passages: [
      {
        text: 'Cancellation policy: please cancel at least 24 hours before your appointment. Late cancellations are charged a fee of 40 dollars.',
        document: 'Policies',
      },
    ],
  },
  lookup_order: { status: 'shipped', delivery_date: '2026-11-28' },
};

describe('the sandbox model through the ask-and-tool scenario, turn by turn', () => {
  it("searches the documents on the first question, calls the business's tool on the second, ends on goodbye", () => {
    // Arrange: the caller's words, as the scenario says them
    const said = SANDBOX_SCENARIOS['ask-and-tool'].steps.flatMap((step) => (step.kind === 'say' ? [step.text] : []));
    const script = new SandboxLlmScript();
    const messages: Message[] = [{ role: 'system', content: 'You are a receptionist.' }];
    const called: { name: string; arguments: unknown }[] = [];
    const spoken: string[] = [];
    // Act: each caller turn, then every tool round the model starts, as the call engine runs them
    for (const words of said) {
      messages.push({ role: 'user', content: words });
      let reply = script.reply({ model: 'gpt-4.1-mini', messages, tools: TOOLS });
      spoken.push(reply.text ?? '');
      while (reply.toolCalls && reply.toolCalls[0]!.name !== 'end_call') {
        const call = reply.toolCalls[0]!;
        called.push({ name: call.name, arguments: JSON.parse(call.arguments) });
        const id = `call_${called.length}`;
        messages.push(
          {
            role: 'assistant',
            content: reply.text ?? null,
            tool_calls: [{ id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
          },
          { role: 'tool', tool_call_id: id, content: JSON.stringify(OUTPUTS[call.name]) },
        );
        reply = script.reply({ model: 'gpt-4.1-mini', messages, tools: TOOLS });
        spoken.push(reply.text ?? '');
      }
      if (reply.toolCalls) called.push({ name: reply.toolCalls[0]!.name, arguments: JSON.parse(reply.toolCalls[0]!.arguments) });
      messages.push({ role: 'assistant', content: reply.text ?? '' });
    }
    // Assert
    expect(called).toEqual([
      { name: 'search_knowledge', arguments: { query: 'Hi, what is your cancellation policy?' } },
      { name: 'lookup_order', arguments: { order_id: 'AB1234' } },
      { name: 'end_call', arguments: {} },
    ]);
    expect(spoken).toEqual([
      'Let me check that for you.',
      'Here is what I found: please cancel at least 24 hours before your appointment. Late cancellations are charged a fee of 40 dollars. Is there anything else?',
      'Let me check that for you.',
      'Here is what I found. status: shipped; delivery date: 2026-11-28. Is there anything else I can help you with?',
      'Thank you for calling. Have a great day, goodbye!',
    ]);
  });
});
