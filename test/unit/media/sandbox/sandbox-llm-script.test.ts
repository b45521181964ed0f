import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../../media-service/src/sandbox/openai-wire';
import { SandboxLlmScript } from '../../../../media-service/src/sandbox/sandbox-llm-script';

function request(messages: ChatRequest['messages'], extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'gpt-4.1-mini', messages, ...extra };
}

const system = { role: 'system' as const, content: 'You are a receptionist.' };
const placed = { role: 'system' as const, content: 'You are a receptionist. You placed this call: the person did not call you.' };
const endCall = {
  type: 'function' as const,
  function: { name: 'end_call', parameters: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] } },
};

describe('SandboxLlmScript', () => {
  it.each([
    { name: 'greets when the caller has not spoken', messages: [system], text: 'Hello! Thanks for calling. How can I help you today?' },
    {
      name: 'on a call it placed, greets without thanking the callee for calling',
      messages: [placed],
      text: 'Hello! I am calling from the team. Do you have a moment?',
    },
    {
      name: 'on a call it placed, says goodbye without thanking the callee for calling',
      messages: [placed, { role: 'user' as const, content: 'Thanks, goodbye.' }],
      text: 'Thank you for your time. Have a great day, goodbye!',
    },
    {
      name: 'books',
      messages: [system, { role: 'user' as const, content: 'Can I book an appointment?' }],
      text: expect.stringContaining('book that'),
    },
    {
      name: 'answers hours',
      messages: [system, { role: 'user' as const, content: 'When are you open?' }],
      text: expect.stringContaining('Monday through Friday'),
    },
    {
      name: 'acknowledges a tool result',
      messages: [system, { role: 'tool' as const, tool_call_id: 'c1', content: '{}' }],
      text: expect.stringContaining('All done'),
    },
    {
      name: 'echoes anything else',
      messages: [system, { role: 'user' as const, content: 'My cat ate my retainer.' }],
      text: 'I understand, you said: My cat ate my retainer. I can help with that. Could you tell me a little more?',
    },
    {
      name: 'echoes Japanese without a doubled full stop',
      messages: [system, { role: 'user' as const, content: '火曜日の十時で大丈夫です。' }],
      text: 'I understand, you said: 火曜日の十時で大丈夫です. I can help with that. Could you tell me a little more?',
    },
    {
      name: 'echoes French without a space before the full stop',
      messages: [system, { role: 'user' as const, content: 'Êtes-vous ouverts le samedi matin ?' }],
      text: 'I understand, you said: Êtes-vous ouverts le samedi matin. I can help with that. Could you tell me a little more?',
    },
    {
      name: 'says goodbye (no end_call offered)',
      messages: [system, { role: 'user' as const, content: 'Bye!' }],
      text: 'Thank you for calling. Have a great day, goodbye!',
    },
  ])('$name', ({ messages, text }) => {
    // Act
    const reply = new SandboxLlmScript().reply(request(messages));
    // Assert
    expect(reply).toEqual({ text });
  });

  it('calls end_call with schema-valid arguments when the caller says goodbye', () => {
    // Act
    const reply = new SandboxLlmScript().reply(
      request([system, { role: 'user', content: "That's all, thanks. Goodbye." }], { tools: [endCall] }),
    );
    // Assert
    expect(reply.toolCalls).toHaveLength(1);
    expect(reply.toolCalls![0]!.name).toBe('end_call');
    expect(JSON.parse(reply.toolCalls![0]!.arguments)).toEqual({ reason: expect.any(String) });
  });

  it('plays queued replies first, in order, then resumes the default policy', () => {
    // Arrange
    const script = new SandboxLlmScript();
    script.enqueue({ text: 'first' }, (r) => ({ text: `second after ${r.messages.length} messages` }));
    const req = request([system, { role: 'user', content: 'When are you open?' }]);
    // Act
    const replies = [script.reply(req), script.reply(req), script.reply(req)];
    // Assert
    expect(replies.map((r) => r.text)).toEqual(['first', 'second after 2 messages', expect.stringContaining('Monday')]);
    expect(script.pending).toBe(0);
  });

  it('answers json_schema requests with JSON and json_object requests with an object', () => {
    // Arrange
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    const script = new SandboxLlmScript();
    // Act
    const structured = script.reply(
      request([system, { role: 'user', content: 'It went fine, ok.' }], {
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema, strict: true } },
      }),
    );
    const loose = script.reply(request([system, { role: 'user', content: 'Hi' }], { response_format: { type: 'json_object' } }));
    // Assert
    expect(JSON.parse(structured.text!)).toEqual({ ok: false });
    expect(JSON.parse(loose.text!)).toEqual({ reply: expect.any(String) });
  });
  it('with preambles off, calls a tool without a word, and still says goodbye with end_call', () => {
    // Arrange
    const script = new SandboxLlmScript();
    script.preambles = false;
    const search = { type: 'function' as const, function: { name: 'search_knowledge', parameters: { type: 'object' } } };
    // Act
    const asked = script.reply(request([system, { role: 'user', content: 'Is there somewhere to park?' }], { tools: [search, endCall] }));
    const bye = script.reply(request([system, { role: 'user', content: 'Thanks, goodbye!' }], { tools: [search, endCall] }));
    // Assert
    expect(asked).toEqual({
      toolCalls: [{ name: 'search_knowledge', arguments: JSON.stringify({ query: 'Is there somewhere to park?' }) }],
    });
    expect(bye.text).toBe('Thank you for calling. Have a great day, goodbye!');
    expect(bye.toolCalls?.[0]?.name).toBe('end_call');
  });
});
