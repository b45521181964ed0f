import { describe, expect, it } from 'vitest';
import { calleeLine } from '../../../../media-service/src/sandbox/callee-lines';
import { SandboxLlmScript } from '../../../../media-service/src/sandbox/sandbox-llm-script';
import { DEFAULT_CALLEE } from '../../../../media-service/src/sandbox/scenarios';
import type { ChatRequest } from '../../../../media-service/src/sandbox/openai-wire';

const said = DEFAULT_CALLEE.steps.flatMap((s) => (s.kind === 'say' ? [s.text] : []));

describe('the sandbox speaks the call’s language', () => {
  it.each(['es', 'fr', 'de', 'it', 'nl', 'ja', 'pt', 'hi', 'ru'])('the default callee has every line in %s', (language) => {
    for (const line of said) expect(calleeLine(line, language)).not.toBe(line);
  });

  it('keeps English, and lines without a translation, as they are', () => {
    expect(calleeLine('Hello, this is Sam speaking.', undefined)).toBe('Hello, this is Sam speaking.');
    expect(calleeLine('A line of a test script.', 'es')).toBe('A line of a test script.');
  });

  it('the sandbox model replies in Spanish when the prompt asks for it, and ends on "Adiós"', () => {
    // Arrange
    const script = new SandboxLlmScript();
    const system = { role: 'system', content: 'Reply in the language with code "es" unless the caller clearly speaks another language.' };
    const request = (text: string) =>
      ({
        model: 'm',
        messages: [system, { role: 'user', content: text }],
        tools: [{ type: 'function', function: { name: 'end_call', parameters: { type: 'object', properties: {} } } }],
      }) as unknown as ChatRequest;

    // Act
    const hours = script.reply(request('¿Abren los sábados por la mañana?'));
    const bye = script.reply(request('Perfecto, gracias. ¡Adiós!'));

    // Assert
    expect(hours.text).toBe('Abrimos de lunes a viernes de nueve a cinco, y los sábados por la mañana hasta el mediodía.');
    expect(bye.text).toBe('Gracias por llamar. ¡Que tenga un buen día, adiós!');
    expect(bye.toolCalls?.[0]?.name).toBe('end_call');
  });
});
