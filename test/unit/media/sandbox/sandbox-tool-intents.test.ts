import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../../media-service/src/sandbox/openai-wire';
import { SandboxLlmScript } from '../../../../media-service/src/sandbox/sandbox-llm-script';
import { TOOL_INTENTS } from '../../../../media-service/src/sandbox/sandbox-tool-intents';
import { ACTION_TOOLS } from '../../../../media-service/src/tools/registry';

const system = { role: 'system' as const, content: 'You are a receptionist.' };
const offered = (...names: string[]) => names.map((name) => ({ type: 'function' as const, function: { name, parameters: {} } }));
const user = (content: string) => ({ role: 'user' as const, content });

function reply(messages: ChatRequest['messages'], tools = offered('take_message', 'notify_team', 'end_call')) {
  return new SandboxLlmScript().reply({ model: 'gpt-4.1-mini', messages: [system, ...messages], tools });
}

describe('the sandbox model and the built-in tools', () => {
  it("calls take_message from the caller's words", () => {
    // Act
    const answer = reply([user("This is Jordan Lee. Can you take a message for Dana: the boiler is leaking, it's urgent.")]);
    // Assert
    expect(answer).toEqual({
      text: "Of course, I'll take that message for the team.",
      toolCalls: [
        {
          name: 'take_message',
          arguments: JSON.stringify({ name: 'Jordan Lee', message: "For Dana: the boiler is leaking, it's urgent.", urgent: true }),
        },
      ],
    });
  });

  it('takes the name from an earlier turn, and a callback number from the words', () => {
    // Act
    const answer = reply([
      user('Hello, my name is Sam Hill.'),
      user('Please leave a message: call me back on 415 555 0199 about my order.'),
    ]);
    // Assert
    expect(JSON.parse(answer.toolCalls![0]!.arguments)).toEqual({
      name: 'Sam Hill',
      message: 'call me back on 415 555 0199 about my order.',
      phone: '415 555 0199',
      urgent: false,
    });
  });

  it('asks for the name before taking a message without one', () => {
    // Act
    const answer = reply([user('Can you take a message for the owner?')]);
    // Assert
    expect(answer).toEqual({ text: 'Of course. May I have your name, please?' });
  });

  it.each([
    ['Can you text me your address?', 'Our address: 1 Main St'],
    ['Could you text me your opening hours?', 'Our opening hours: Mon-Fri 09:00-17:00'],
    [
      'Just text me, please.',
      'Thanks for calling. Here are the details we talked about; reply to this message or call us with any questions.',
    ],
  ])('calls send_sms for "%s", with the fact from the system prompt', (words, body) => {
    // Arrange
    const facts = { role: 'system' as const, content: 'Name: Acme\nOpening hours: Mon-Fri 09:00-17:00\nAddress: 1 Main St' };
    // Act
    const answer = new SandboxLlmScript().reply({ model: 'gpt-4.1-mini', messages: [facts, user(words)], tools: offered('send_sms') });
    // Assert
    expect(answer).toEqual({
      text: "Sure, I'll text that to the number you're calling from.",
      toolCalls: [{ name: 'send_sms', arguments: JSON.stringify({ body }) }],
    });
  });

  it('calls email_caller with the address the caller said, reading it back first', () => {
    // Arrange
    const facts = { role: 'system' as const, content: 'Opening hours: Mon-Fri 09:00-17:00' };
    // Act
    const answer = new SandboxLlmScript().reply({
      model: 'gpt-4.1-mini',
      messages: [facts, user('Hi, this is Sam Lee. Please email me your opening hours at sam@example.com.')],
      tools: offered('email_caller'),
    });
    // Assert
    expect(answer.text).toBe("Sure, I'll email that to sam@example.com.");
    expect(JSON.parse(answer.toolCalls![0]!.arguments)).toEqual({
      email: 'sam@example.com',
      subject: 'The details you asked for',
      body: 'Hello Sam Lee,\n\nOur opening hours: Mon-Fri 09:00-17:00\n\nThanks for calling.',
    });
  });

  it('asks for the address before emailing without one', () => {
    const answer = reply([user('Can you email me the details?')], offered('email_caller'));
    expect(answer).toEqual({ text: 'Of course. What email address should I send it to?' });
  });

  it('never calls a tool the request does not offer', () => {
    // Act
    const answer = reply([user('Hi, this is Jordan Lee. Can you take a message?')], offered('end_call'));
    // Assert
    expect(answer.toolCalls).toBeUndefined();
  });

  it('calls notify_team when the caller asks for the team to be alerted', () => {
    // Act
    const answer = reply([user('The basement is flooding, please alert the team.')]);
    // Assert
    expect(answer.toolCalls).toEqual([
      { name: 'notify_team', arguments: JSON.stringify({ message: 'The basement is flooding, please alert the team.', urgent: true }) },
    ]);
  });

  it.each([
    ['Can you text me a payment link for the $45 deposit?', { amount: 45, description: 'Deposit' }],
    ["I'd like a link to pay for my invoice, it's 120 dollars.", { amount: 120, description: 'Invoice' }],
    ['Send me a payment link for $1200.50.', { amount: 1200.5, description: 'Payment' }],
  ])('calls send_payment_link from "%s", before a plain text', (said, args) => {
    // Act
    const answer = reply([user(said)], offered('send_payment_link', 'send_sms', 'end_call'));
    // Assert
    expect(answer).toEqual({
      text: "Sure, I'll text you a secure payment link.",
      toolCalls: [{ name: 'send_payment_link', arguments: JSON.stringify(args) }],
    });
  });

  it('asks how much before sending a payment link without an amount', () => {
    expect(reply([user('Can I get a payment link?')], offered('send_payment_link'))).toEqual({
      text: 'Of course. How much is the payment for?',
    });
  });

  it.each([
    [
      'take_message, team told',
      'take_message',
      '{"saved":true,"message_id":7,"team_notified":true}',
      "I've passed your message on to the team, and they've been notified. Is there anything else I can help you with?",
    ],
    [
      'take_message, no team email',
      'take_message',
      '{"saved":true,"message_id":7,"team_notified":false}',
      "I've saved your message for the team. Is there anything else I can help you with?",
    ],
    [
      'notify_team',
      'notify_team',
      '{"team_notified":true,"message_id":8}',
      "I've alerted the team, and someone will look at it as soon as they can. Is there anything else?",
    ],
    [
      'an error, read back plainly',
      'take_message',
      '{"error":"The message system did not answer, so the message was not saved. Apologise, and ask the caller to call back later."}',
      "I'm sorry, that didn't work: the message system did not answer, so the message was not saved. Could you try again a little later?",
    ],
    [
      'send_payment_link',
      'send_payment_link',
      '{"sent":true,"amount":"45.00 USD","expires_at":"2026-11-26T15:00:00.000Z"}',
      "I've texted you a secure payment link for 45.00 USD. You can pay on that page whenever you're ready. Is there anything else?",
    ],
    [
      "a business's own tool: its plain fields",
      'lookup_order',
      '{"status":"shipped","delivery_date":"2026-11-28","items":[1]}',
      'Here is what I found. status: shipped; delivery date: 2026-11-28. Is there anything else I can help you with?',
    ],
    [
      "a business's own tool: its result line as it is",
      'lookup_order',
      '{"result":"Order AB1234 ships tomorrow."}',
      'Order AB1234 ships tomorrow. Is there anything else I can help you with?',
    ],
    ["a business's own tool with nothing to say", 'lookup_order', '{"items":[]}', 'All done. Is there anything else I can help you with?'],
  ])('speaks the result back: %s', (_name, tool, output, text) => {
    // Arrange
    const asked = {
      role: 'assistant' as const,
      content: null,
      tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: tool, arguments: '{}' } }],
    };
    // Act
    const answer = reply([user('Take a message.'), asked, { role: 'tool', tool_call_id: 'c1', content: output }]);
    // Assert
    expect(answer).toEqual({ text });
  });

  it('has an intent for every built-in action tool, so each can be driven from a sandbox call', () => {
    // Assert
    expect(TOOL_INTENTS.map((intent) => intent.tool).sort()).toEqual(ACTION_TOOLS.map((tool) => tool.definition.name).sort());
  });
});
