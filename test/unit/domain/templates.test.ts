import { describe, expect, it } from 'vitest';
import { buildSetupPrompt, type SimpleSetupShape } from '../../../shared/domain/setup-prompt';
import { TEMPLATE_DESCRIPTIONS, TEMPLATE_NAMES, templateConfig } from '../../../shared/domain/templates';

// Bounds copied from the spec tables (AssistantConfig, SimpleSetup, AnalysisCfg, AdvancedCfg,
// TranscriberCfg) on purpose: the test checks the templates against the contract, not against
// constants the code under test could get wrong in the same way.
const CONFIG_FIELDS = [
  'first_message_mode',
  'first_message',
  // Ours, not the spec's: the greeting of calls the business places (docs/design.md "How each setting is honoured").
  'outbound_first_message',
  'system_prompt',
  'business_context',
  'language',
  'mode',
  'live_voice',
  'model',
  'transcriber',
  'voice',
  'builtin',
  'tool_ids',
  'knowledge_ids',
  'analysis',
  'advanced',
  'variables',
  'workflow_id',
  'setup',
];
const ADVANCED_FIELDS = [
  'max_duration_s',
  'silence_timeout_s',
  'idle_messages',
  'idle_max',
  'end_call_message',
  'end_call_phrases',
  'recording',
  'recording_notice',
  'ai_disclosure',
  'waivers',
  'interrupt_min_words',
  'background',
  'voicemail_detection',
  'voicemail_message',
  'server_url',
  'hipaa',
  'memory',
  'safety_fallback',
  'fillers',
  'interruptions',
  'greeting_delay_ms',
  'greet_after_silence_s',
  'keypad',
  'redact',
  'keep_days',
  'server_events',
];
const INTEGER_RANGES: Record<string, [number, number]> = {
  max_duration_s: [30, 3600],
  silence_timeout_s: [5, 120],
  idle_max: [1, 5],
};
const FIELD_TYPES = ['string', 'number', 'boolean', 'enum', 'date'];
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface Field {
  name: string;
  type: string;
  description: string;
  options?: string[];
}
interface Template {
  first_message: string;
  outbound_first_message: string;
  setup: SimpleSetupShape;
  analysis: { summary_prompt: string; success_rubric: string; success_scale: string; structured: Field[] };
  advanced: Record<string, unknown> & { idle_messages?: string[]; end_call_phrases?: string[] };
  transcriber?: { keyterms?: string[] };
}

const USEFUL = TEMPLATE_NAMES.filter((name) => name !== 'blank');

describe.each(USEFUL)('template %s', (name) => {
  const template = templateConfig(name) as unknown as Template;

  it('uses only spec field names', () => {
    // Assert
    expect(CONFIG_FIELDS).toEqual(expect.arrayContaining(Object.keys(template)));
    expect(ADVANCED_FIELDS).toEqual(expect.arrayContaining(Object.keys(template.advanced)));
    expect(Object.keys(template.analysis).sort()).toEqual(['structured', 'success_rubric', 'success_scale', 'summary_prompt']);
    if (template.transcriber) expect(Object.keys(template.transcriber)).toEqual(['keyterms']);
  });

  it('has a setup for its own role within the SimpleSetup bounds', () => {
    // Arrange
    const { setup } = template;
    // Assert
    expect(setup.role).toBe(name);
    expect(['friendly', 'professional', 'relaxed']).toContain(setup.tone);
    expect(setup.name.length).toBeGreaterThan(0);
    expect(setup.name.length).toBeLessThanOrEqual(40);
    for (const text of [setup.helps_with, setup.always, setup.never]) {
      expect(text.trim().length).toBeGreaterThan(0);
      expect(text.length).toBeLessThanOrEqual(1500);
    }
    expect(buildSetupPrompt(setup, null).length).toBeLessThanOrEqual(30_000);
  });

  it.each(['first_message', 'outbound_first_message'] as const)(
    'greets with a real %s that uses the persona name and no placeholders',
    (key) => {
      // Assert
      expect(template[key].length).toBeGreaterThan(20);
      expect(template[key].length).toBeLessThanOrEqual(1000);
      expect(template[key]).toContain(template.setup.name);
      expect(template[key]).not.toMatch(/\{\{|\}\}/);
    },
  );

  it('has analysis within the AnalysisCfg bounds', () => {
    // Arrange
    const { analysis } = template;
    // Assert
    for (const text of [analysis.summary_prompt, analysis.success_rubric]) {
      expect(text.length).toBeGreaterThan(50);
      expect(text.length).toBeLessThanOrEqual(2000);
    }
    expect(['pass_fail', 'score_10', 'descriptive']).toContain(analysis.success_scale);
    expect(analysis.structured.length).toBeGreaterThan(0);
    expect(analysis.structured.length).toBeLessThanOrEqual(40);
    expect(new Set(analysis.structured.map((f) => f.name)).size).toBe(analysis.structured.length);
  });

  it.each(template.analysis.structured.map((f) => [f.name, f] as const))('structured field %s is a valid StructuredField', (_n, f) => {
    // Assert
    expect(Object.keys(f).every((key) => ['name', 'type', 'description', 'options'].includes(key))).toBe(true);
    expect(f.name).toMatch(FIELD_NAME);
    expect(f.name.length).toBeLessThanOrEqual(60);
    expect(FIELD_TYPES).toContain(f.type);
    expect(f.description.length).toBeGreaterThan(0);
    expect(f.description.length).toBeLessThanOrEqual(300);
    if (f.type === 'enum') {
      expect(f.options?.length ?? 0).toBeGreaterThan(1);
      expect(f.options?.length ?? 0).toBeLessThanOrEqual(30);
      expect(new Set(f.options).size).toBe(f.options?.length);
    } else {
      expect(f.options).toBeUndefined();
    }
  });

  it('has call handling within the AdvancedCfg and TranscriberCfg bounds', () => {
    // Arrange
    const { advanced, transcriber } = template;
    // Assert
    for (const [key, [min, max]] of Object.entries(INTEGER_RANGES)) {
      const value = advanced[key];
      if (value === undefined) continue;
      expect(Number.isInteger(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(min);
      expect(value).toBeLessThanOrEqual(max);
    }
    expect(advanced.idle_messages?.length ?? 0).toBeLessThanOrEqual(5);
    expect(advanced.end_call_phrases?.length ?? 0).toBeLessThanOrEqual(20);
    expect(advanced.end_call_phrases).toContain('goodbye');
    expect(String(advanced.end_call_message ?? '').length).toBeLessThanOrEqual(300);
    expect(String(advanced.voicemail_message ?? '').length).toBeLessThanOrEqual(600);
    expect(transcriber?.keyterms?.length ?? 0).toBeLessThanOrEqual(50);
    for (const text of [...(advanced.idle_messages ?? []), ...(advanced.end_call_phrases ?? [])]) {
      expect(text.trim().length).toBeGreaterThan(0);
    }
  });
});

describe('template structured fields', () => {
  it.each([
    ['receptionist', 'reason', 'string'],
    ['receptionist', 'callback_number', 'string'],
    ['receptionist', 'message', 'string'],
    ['scheduler', 'appointment_date', 'date'],
    ['scheduler', 'service', 'string'],
    ['scheduler', 'new_patient', 'boolean'],
    ['lead_qualifier', 'company', 'string'],
    ['lead_qualifier', 'budget', 'number'],
    ['lead_qualifier', 'timeline', 'enum'],
    ['lead_qualifier', 'qualified', 'boolean'],
    ['support', 'issue_category', 'enum'],
    ['support', 'resolved', 'boolean'],
    ['support', 'order_number', 'string'],
  ] as const)('%s records %s as %s', (name, field, type) => {
    // Arrange
    const template = templateConfig(name) as unknown as Template;
    // Act
    const found = template.analysis.structured.find((f) => f.name === field);
    // Assert
    expect(found?.type).toBe(type);
  });
});

describe('templateConfig', () => {
  it('gives blank as an empty config (every setting at its default)', () => {
    // Act / Assert
    expect(templateConfig('blank')).toEqual({});
  });

  it('returns a fresh copy each time, so a caller cannot change the template', () => {
    // Arrange
    const first = templateConfig('support') as unknown as Template;
    // Act
    first.setup.name = 'Changed';
    first.analysis.structured.pop();
    // Assert
    const second = templateConfig('support') as unknown as Template;
    expect(second.setup.name).toBe('Sam');
    expect(second.analysis.structured.length).toBe(first.analysis.structured.length + 1);
  });

  it.each(TEMPLATE_NAMES)('describes %s in one line', (name) => {
    // Act
    const description = TEMPLATE_DESCRIPTIONS[name];
    // Assert
    expect(description.length).toBeGreaterThan(20);
    expect(description).not.toContain('\n');
  });
});
