import { describe, expect, it } from 'vitest';
import {
  BUILTIN_VARIABLES,
  parseAssistantConfig,
  type AssistantConfig,
  type AssistantConfigInput,
} from '../../../shared/domain/assistant-config';
import { defaultBusinessProfile, type BusinessProfile } from '../../../shared/domain/business-profile';
import { buildCallScript, builtinVariables, type CallScriptInput } from '../../../shared/domain/call-script';
import { fixedLines } from '../../../shared/domain/fixed-lines';
import { thanksForCalling } from '../../../shared/domain/greeting';
import { LANGUAGE_CODES } from '../../../shared/domain/languages';
import { TEMPLATE_NAMES, templateConfig } from '../../../shared/domain/templates';

const config = (input: AssistantConfigInput = {}): AssistantConfig => parseAssistantConfig(input, []).config;
const acme: BusinessProfile = { ...defaultBusinessProfile(), display_name: 'Acme Dental', timezone: 'America/New_York' };
const script = (overrides: Partial<CallScriptInput>) =>
  buildCallScript({ config: config(), callVariables: {}, profile: acme, memory: '', direction: 'outbound', ...overrides });

/** "Thank you for calling" in each supported language, as a business might write it. */
const THANKS: Record<string, string[]> = {
  en: [
    'Thanks for calling Acme!',
    'Hi, thank you so much for calling.',
    'Thanks for your call, this is Ava.',
    'Thank you for contacting us.',
  ],
  es: ['¡Hola! Gracias por llamar.', 'Muchas gracias por su llamada.'],
  fr: ["Merci d'avoir appelé Acme.", 'Bonjour, merci de votre appel.'],
  de: ['Vielen Dank für Ihren Anruf.', 'Danke, dass Sie uns angerufen haben.'],
  it: ['Grazie per aver chiamato Acme.', 'Grazie per la sua chiamata.'],
  nl: ['Bedankt voor het bellen.', 'Dank u wel voor uw telefoontje.'],
  ja: ['お電話ありがとうございます。', 'お電話いただきありがとうございます。'],
  pt: ['Obrigado por ligar!', 'Obrigada pela sua ligação.'],
  hi: ['कॉल करने के लिए धन्यवाद।'],
  ru: ['Спасибо за звонок!', 'Спасибо, что позвонили.'],
};

/** Greetings that thank for something else, or not at all: fine on an outbound call. */
const NOT_THANKS = [
  'Hi, this is Acme Dental calling about your visit.',
  'Thanks for taking the time to talk!',
  'Hello, Acme Dental.',
  'Thank you. Calling back about your order.',
  'Gracias por su tiempo.',
  'Danke für Ihre Geduld.',
  'Спасибо за ожидание.',
  'Hello, do you have a moment?',
];

describe('thanksForCalling', () => {
  it.each(Object.entries(THANKS).flatMap(([code, lines]) => lines.map((line) => [code, line] as const)))('%s: %s', (_code, line) => {
    expect(thanksForCalling(line)).toBe(true);
  });

  it.each(NOT_THANKS)('not: %s', (line) => {
    expect(thanksForCalling(line)).toBe(false);
  });

  it('covers every supported language', () => {
    expect(Object.keys(THANKS).sort()).toEqual([...LANGUAGE_CODES].sort());
  });
});

describe('the greeting by direction', () => {
  const both = { first_message: 'Thanks for calling {{business_name}}!', outbound_first_message: 'Hi {{name}}, {{business_name}} here.' };

  it.each([
    { name: 'inbound says first_message', direction: 'inbound' as const, input: both, expected: 'Thanks for calling Acme Dental!' },
    { name: 'outbound says outbound_first_message', direction: 'outbound' as const, input: both, expected: 'Hi Jo, Acme Dental here.' },
    {
      name: 'outbound without one says a first_message that does not thank for calling',
      direction: 'outbound' as const,
      input: { first_message: 'Hi {{name}}, this is Acme Dental.' },
      expected: 'Hi Jo, this is Acme Dental.',
    },
    {
      name: 'outbound without one, first_message thanking for calling: the standard line',
      direction: 'outbound' as const,
      input: { first_message: 'Thanks for calling! How can I help?' },
      expected: 'Hello, this is Acme Dental calling. Do you have a moment?',
    },
    { name: 'outbound with neither: the model writes it', direction: 'outbound' as const, input: {}, expected: '' },
    {
      name: 'an outbound_first_message of blanks counts as empty',
      direction: 'outbound' as const,
      input: { first_message: 'Hello.', outbound_first_message: '  ' },
      expected: 'Hello.',
    },
  ])('$name', ({ direction, input, expected }) => {
    // Act
    const { firstMessage } = script({ config: config(input), direction, callVariables: { name: 'Jo' } });
    // Assert
    expect(firstMessage).toBe(expected);
  });

  it.each(LANGUAGE_CODES)('%s: the standard line is in the assistant’s language, with or without a business name', (code) => {
    // Arrange
    const spoken = { ...config({ first_message: THANKS[code]![0]! }), language: code };
    // Act
    const named = script({ config: spoken }).firstMessage;
    const unnamed = script({ config: spoken, profile: null }).firstMessage;
    // Assert
    expect(named).toBe(fixedLines(code).outboundGreeting('Acme Dental'));
    expect(unnamed).toBe(fixedLines(code).outboundGreeting(''));
    expect(thanksForCalling(named) || thanksForCalling(unnamed)).toBe(false);
  });
});

describe('no template thanks the callee for calling on an outbound call', () => {
  const cases = TEMPLATE_NAMES.flatMap((name) => LANGUAGE_CODES.map((code) => [name, code] as const));

  it.each(cases)('%s in %s', (name, code) => {
    // Arrange: the template's config as created, spoken in each language (the texts stay the template's own).
    const template = { ...parseAssistantConfig(templateConfig(name), []).config, language: code };
    // Act
    const outbound = script({ config: template });
    // Assert: every line the assistant is given to say on an outbound call.
    const lines = [outbound.firstMessage, outbound.endCallMessage, outbound.voicemailMessage, ...outbound.idleMessages];
    for (const line of lines) expect(thanksForCalling(line), line).toBe(false);
    if (name !== 'blank') expect(outbound.firstMessage).toBe(template.outbound_first_message);
  });

  it('the check would catch inbound greetings that thank the caller', () => {
    const inbound = [
      'Thanks for calling! This is Ava. How can I help you today?',
      'Hi, thanks for calling! This is Maya.',
      'Thanks for calling support, this is Sam.',
    ];
    expect(inbound.filter(thanksForCalling)).toHaveLength(3);
  });
});

describe('built-in variables', () => {
  const now = new Date('2026-11-29T14:41:00Z');

  it('direction, business name, the other party’s number, and the start’s date and time in the business’s zone', () => {
    // Act
    const variables = builtinVariables({
      config: config(),
      callVariables: {},
      profile: acme,
      memory: '',
      direction: 'inbound',
      partyNumber: '+15550100002',
      now,
    });
    // Assert
    expect(variables).toEqual({
      direction: 'inbound',
      business_name: 'Acme Dental',
      customer_number: '+15550100002',
      date: 'Sunday, November 29, 2026',
      time: '9:41 AM',
    });
    expect(Object.keys(variables).sort()).toEqual([...BUILTIN_VARIABLES].sort());
  });

  it('are worded in the assistant’s language', () => {
    const variables = builtinVariables({
      config: { ...config(), language: 'es' },
      callVariables: {},
      profile: acme,
      memory: '',
      direction: 'outbound',
      now,
    });
    expect(variables).toMatchObject({ direction: 'outbound', date: 'domingo, 29 de noviembre de 2026', time: '9:41' });
  });

  it('leave out what is unknown, so its placeholder stays as written', () => {
    // Act
    const { firstMessage } = script({
      config: config({ outbound_first_message: '{{business_name}} {{customer_number}} {{date}} {{time}}' }),
      profile: null,
      partyNumber: 'anonymous',
    });
    // Assert
    expect(firstMessage).toBe('{{business_name}} {{customer_number}} {{date}} {{time}}');
  });

  it('reach the greeting, the prompt and the spoken messages; the business’s own variables win', () => {
    // Arrange
    const input = config({
      outbound_first_message: 'Hi, {{business_name}} calling on {{date}}.',
      system_prompt: 'This is an {{direction}} call to {{customer_number}}.',
      variables: { business_name: 'Acme' },
      advanced: {
        end_call_message: 'Bye from {{business_name}}.',
        idle_messages: ['Still there? ({{direction}})'],
        voicemail_message: '{{time}}',
      },
    });
    // Act
    const outbound = script({ config: input, partyNumber: '+15550100002', now });
    // Assert
    expect(outbound.firstMessage).toBe('Hi, Acme calling on Sunday, November 29, 2026.');
    expect(outbound.systemPrompt).toContain('This is an outbound call to +15550100002.');
    expect(outbound.endCallMessage).toBe('Bye from Acme.');
    expect(outbound.idleMessages).toEqual(['Still there? (outbound)']);
    // After the disclosure line a voicemail opens with (docs/decisions.md "What a voicemail owes the law").
    expect(outbound.voicemailMessage).toBe('This is an AI assistant calling for Acme Dental. 9:41 AM');
    expect(outbound.variables).toMatchObject({ direction: 'outbound', business_name: 'Acme' });
  });

  it('a call’s own variables win over the built-in ones', () => {
    const { firstMessage } = script({
      config: config({ outbound_first_message: '{{direction}}' }),
      callVariables: { direction: 'campaign' },
    });
    expect(firstMessage).toBe('campaign');
  });
});

describe('the outbound prompt', () => {
  it('tells the model it placed the call and never to thank for calling; inbound does not', () => {
    const rule = /You placed this call: .* never thank them for calling/;
    expect(script({ direction: 'outbound' }).systemPrompt).toMatch(rule);
    expect(script({ direction: 'inbound' }).systemPrompt).not.toMatch(rule);
  });
});
