import { describe, expect, it } from 'vitest';
import { defaultAssistantConfig } from '../../../shared/domain/assistant-config';
import { buildCallScript } from '../../../shared/domain/call-script';
import { FIXED_LINE_LANGUAGES, fixedLines } from '../../../shared/domain/fixed-lines';
import { LANGUAGE_CODES } from '../../../shared/domain/languages';

describe('fixed lines', () => {
  it('cover exactly the supported languages', () => {
    expect([...FIXED_LINE_LANGUAGES].sort()).toEqual([...LANGUAGE_CODES].sort());
  });

  it.each(LANGUAGE_CODES)('%s: every line is there, and only English is English', (code) => {
    // Act
    const lines = fixedLines(code);
    const english = fixedLines('en');
    const all = [
      lines.notice({ ai: true, recorded: true, businessName: 'Acme' }),
      lines.notice({ ai: true, recorded: false, businessName: '' }),
      lines.notice({ ai: false, recorded: true, businessName: '' }),
      lines.fallback,
      ...lines.fillers,
      lines.transferFailed,
      lines.cannotTakeCall,
      lines.outboundGreeting('Acme'),
      lines.outboundGreeting(''),
    ];

    // Assert
    expect(lines.fillers).toHaveLength(3);
    for (const line of all) expect(line.trim()).not.toBe('');
    expect(all[0]).toContain('Acme');
    expect(lines.outboundGreeting('Acme')).toContain('Acme');
    if (code !== 'en') expect(lines.outboundGreeting('')).not.toBe(english.outboundGreeting(''));
    expect(lines.notice({ ai: false, recorded: false, businessName: 'Acme' })).toBe('');
    if (code !== 'en') expect(lines.fallback).not.toBe(english.fallback);
  });

  it('the English notice: short, says it is an AI and that the call is recorded', () => {
    const lines = fixedLines('en');
    expect(lines.notice({ ai: true, recorded: true, businessName: 'Acme Dental' })).toBe(
      "I'm an AI assistant for Acme Dental. This call is recorded.",
    );
    expect(lines.notice({ ai: false, recorded: true, businessName: '' })).toBe('This call is recorded.');
  });

  it.each(LANGUAGE_CODES)('%s: a voicemail opens with who is calling, or with no name when there is none', (code) => {
    // Act
    const lines = fixedLines(code);
    // Assert
    expect(lines.voicemailIntro('Acme')).toContain('Acme');
    expect(lines.voicemailIntro('').trim()).not.toBe('');
    expect(lines.voicemailIntro('')).not.toContain('{name}');
  });

  it('a Spanish assistant’s script carries the Spanish notice, fallback, fillers and transfer apology', () => {
    // Arrange
    const config = { ...defaultAssistantConfig(), language: 'es-MX' };

    // Act
    const script = buildCallScript({ config, callVariables: {}, profile: null, memory: '', direction: 'outbound' });

    // Assert
    expect(script.notice).toBe('Soy un asistente de IA. Esta llamada se graba.');
    expect(script.fallback).toMatch(/^Lo siento, tengo un problema técnico/);
    expect(script.fillers).toEqual(['Un momento.', 'Déjeme comprobarlo.', 'Claro, un segundo.']);
    expect(script.transferFailed).toBe('Lo siento, ahora mismo no he podido contactar con nadie del equipo.');
  });

  it('an unsupported stored language speaks English', () => {
    expect(fixedLines('tlh').fallback).toBe(fixedLines('en').fallback);
  });
});
