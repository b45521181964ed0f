import { describe, expect, it } from 'vitest';
import {
  describeFields,
  fieldId,
  fieldIds,
  labelFor,
  locToFieldId,
  type FieldNode,
  type GroupField,
  type OpenApiDoc,
} from '../../../console/src/forms/schema-fields';
import { buildOpenApiDocument } from '../../../shared/domain/openapi';

// The document the API serves at /openapi.json: the forms are generated from it at run time.
const doc = buildOpenApiDocument() as unknown as OpenApiDoc;
const update = describeFields(doc, { $ref: '#/components/schemas/UpdateAssistantBody' });

function find(nodes: FieldNode[], path: string): FieldNode {
  const id = fieldId(path.split('.'));
  for (const node of nodes) {
    if (node.id === id) return node;
    if (node.kind === 'group' && id.startsWith(`${node.id}-`)) return find(node.children, path);
  }
  throw new Error(`no field ${path}`);
}

describe('describeFields on the assistant update body', () => {
  it('gives the name, then the config as a fieldset, and leaves the read-only members out', () => {
    // Act
    const top = update.map((node) => node.id);

    // Assert
    expect(top).toEqual(['f-name', 'f-config']);
    expect(find(update, 'config').kind).toBe('group');
    expect(fieldIds(update).has('f-config-model-custom_key_set')).toBe(false);
  });

  it.each([
    ['config.mode', { kind: 'select', options: ['standard', 'live'] }],
    ['config.first_message_mode', { kind: 'select', options: ['assistant_first', 'wait_for_user', 'model_generated'] }],
    ['config.business_context', { kind: 'checkbox' }],
    ['config.model.temperature', { kind: 'number', integer: false, min: 0, max: 1.5 }],
    ['config.advanced.max_duration_s', { kind: 'number', integer: true, min: 30, max: 3600, label: 'Max duration (seconds)' }],
    ['config.workflow_id', { kind: 'number', integer: true, nullable: true }],
    ['config.system_prompt', { kind: 'textarea', maxLength: 30000 }],
    ['config.language', { kind: 'text', maxLength: 16 }],
    ['config.model.custom_key', { kind: 'secret' }],
    ['config.transcriber.keyterms', { kind: 'lines', integers: false, maxItems: 50 }],
    ['config.tool_ids', { kind: 'lines', integers: true, nullable: false, label: 'Tool IDs' }],
    ['config.knowledge_ids', { kind: 'lines', integers: true, nullable: true }],
    ['config.advanced.redact', { kind: 'choices', options: ['card', 'ssn', 'email', 'phone', 'dob'] }],
    ['config.voice.pronunciations', { kind: 'json' }],
    ['config.variables', { kind: 'json' }],
    ['config.setup', { kind: 'group', nullable: true }],
    ['config.model.fallback', { kind: 'group', nullable: true }],
    ['config.setup.helps_with', { kind: 'textarea', maxLength: 1500 }],
  ])('%s is %o', (path, expected) => {
    expect(find(update, path)).toMatchObject(expected);
  });

  it('puts the description, the bounds and the default in the hint', () => {
    expect(find(update, 'config.voice.speed').hint).toBe('0.7 to 1.2. Default 1.');
    expect(find(update, 'config.advanced.keep_days').hint).toMatch(/^Days after a call ends .* 0 to 3650\. Default 0\.$/);
    expect(find(update, 'config.tool_ids').hint).toBe('One ID per line. At most 64.');
    expect(find(update, 'config.voice.pronunciations').hint).toBe('As a JSON list of {word, say}. At most 100.');
  });

  it('gives every field a unique id, so each label and error names one input', () => {
    const ids: string[] = [];
    const walk = (nodes: FieldNode[]) => nodes.forEach((node) => (ids.push(node.id), node.kind === 'group' && walk(node.children)));
    walk(update);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(60);
  });

  it('picks properties by name at a path: the create page asks for the name, the template and the setup', () => {
    // Act
    const create = describeFields(doc, { $ref: '#/components/schemas/CreateAssistantBody' }, [], ['name', 'template']);
    const setup = describeFields(doc, { $ref: '#/components/schemas/SimpleSetupInput' }, ['config', 'setup']);

    // Assert
    expect(create.map((node) => node.id)).toEqual(['f-name', 'f-template']);
    expect(create[1]).toMatchObject({ kind: 'select', options: ['receptionist', 'scheduler', 'lead_qualifier', 'support', 'blank'] });
    expect(setup.map((node) => node.id)).toEqual([
      'f-config-setup-role',
      'f-config-setup-name',
      'f-config-setup-tone',
      'f-config-setup-helps_with',
      'f-config-setup-always',
      'f-config-setup-never',
    ]);
  });

  it('refuses a $ref the document does not have', () => {
    expect(() => describeFields(doc, { $ref: '#/components/schemas/Nothing' })).toThrow(/no schema Nothing/);
  });
});

describe('locToFieldId', () => {
  const ids = fieldIds(update);

  it.each([
    [['body', 'config', 'voice', 'speed'], 'f-config-voice-speed'],
    [['body', 'name'], 'f-name'],
    [['body', 'config', 'voice', 'pronunciations', 2, 'word'], 'f-config-voice-pronunciations'],
    [['body', 'config', 'tool_ids', 0], 'f-config-tool_ids'],
    [['body', 'config', 'model', 'fallback', 'model'], 'f-config-model-fallback-model'],
    [['body', 'config', 'setup'], 'f-config-setup'],
    [['body', 'config', 'nonsense'], 'f-config'],
    [['body', 'other'], undefined],
    [['body'], undefined],
  ])('%j → %s', (loc, expected) => {
    expect(locToFieldId(loc, ids)).toBe(expected);
  });
});

describe('labelFor', () => {
  it.each([
    ['max_duration_s', 'Max duration (seconds)'],
    ['greeting_delay_ms', 'Greeting delay (ms)'],
    ['knowledge_ids', 'Knowledge IDs'],
    ['voice_id', 'Voice ID'],
    ['eot_threshold', 'Eot threshold'],
    ['ai_disclosure', 'AI disclosure'],
  ])('%s → %s', (name, label) => {
    expect(labelFor(name)).toBe(label);
  });
});

describe('a nullable object', () => {
  it('keeps its own fields', () => {
    const fallback = find(update, 'config.model.fallback') as GroupField;
    expect(fallback.children.map((node) => node.label)).toEqual(['Provider', 'Model', 'Custom URL']);
  });
});
