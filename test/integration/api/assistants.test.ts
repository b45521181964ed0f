import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAssistantConfig, toConfigView } from '../../../shared/domain/assistant-config';
import { createApiHarness, type ApiHarness } from '../../support/api-harness';

let harness: ApiHarness;

beforeAll(async () => {
  harness = await createApiHarness();
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

describe('assistants', () => {
  it('creates from {} with the receptionist template and returns the Assistant shape', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('POST', '/assistants', {});
    // Assert
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(['config', 'created_at', 'id', 'is_default', 'name', 'updated_at']);
    expect(body).toMatchObject({ name: '', is_default: true });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.config.setup.role).toBe('receptionist');
    expect(body.config.system_prompt.length).toBeGreaterThan(200);
    expect(body.config.model.custom_key_set).toBe(false);
  });

  it('round-trips every default: create with config {} then GET returns the full default config', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const created = await json(await tenant.request('POST', '/assistants', { name: 'Plain', config: {} }));
    // Act
    const fetched = await json(await tenant.request('GET', `/assistants/${created.id}`));
    // Assert
    expect(fetched.config).toEqual(toConfigView(defaultAssistantConfig(), false));
    expect(Object.keys(fetched.config)).toEqual(Object.keys(toConfigView(defaultAssistantConfig(), false)));
    expect(Object.keys(fetched.config.advanced)).toEqual(Object.keys(defaultAssistantConfig().advanced));
    expect(fetched).toEqual(created);
  });

  it.each(['receptionist', 'scheduler', 'lead_qualifier', 'support'])('template %s gives a real starting assistant', async (template) => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const body = await json(await tenant.request('POST', '/assistants', { name: template, template }));
    // Assert
    expect(body.config.setup.role).toBe(template);
    expect(body.config.first_message).not.toBe('');
    expect(body.config.analysis.structured.length).toBeGreaterThan(0);
    expect(body.config.system_prompt).toContain(body.config.setup.name);
  });

  it('template blank gives the plain defaults', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const body = await json(await tenant.request('POST', '/assistants', { template: 'blank' }));
    // Assert
    expect(body.config).toEqual(toConfigView(defaultAssistantConfig(), false));
  });

  it('a full config overrides the template', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const body = await json(
      await tenant.request('POST', '/assistants', { template: 'scheduler', config: { system_prompt: 'Be brief.', language: 'de' } }),
    );
    // Assert
    expect(body.config.setup).toBeNull();
    expect(body.config.system_prompt).toBe('Be brief.');
    expect(body.config.language).toBe('de');
  });

  it('PATCH config replaces the whole configuration; left-out settings return to defaults', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const created = await json(
      await tenant.request('POST', '/assistants', { config: { language: 'fr', advanced: { max_duration_s: 120 } } }),
    );
    // Act
    const patched = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config: { first_message: 'Hi' } }));
    // Assert
    expect(patched.config.language).toBe('en');
    expect(patched.config.advanced.max_duration_s).toBe(600);
    expect(patched.config.first_message).toBe('Hi');
    expect(patched.created_at).toBe(created.created_at);
  });

  it('PATCH with only a name leaves the config untouched', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const created = await json(await tenant.request('POST', '/assistants', { template: 'support' }));
    // Act
    const patched = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { name: 'Helpdesk' }));
    // Assert
    expect(patched.name).toBe('Helpdesk');
    expect(patched.config).toEqual(created.config);
  });

  it.each([
    ['empty name', { name: '' }, 'string_too_short'],
    ['121-char name', { name: 'x'.repeat(121) }, 'string_too_long'],
    ['unknown field', { nmae: 'typo' }, 'extra_forbidden'],
  ])('PATCH refuses %s with 422', async (_case, body, type) => {
    // Arrange
    const tenant = await harness.newTenant();
    const created = await json(await tenant.request('POST', '/assistants', {}));
    // Act
    const response = await tenant.request('PATCH', `/assistants/${created.id}`, body);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].type).toBe(type);
  });

  it('accepts a 120-character name on update and echoed read-only fields', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const created = await json(await tenant.request('POST', '/assistants', {}));
    // Act
    const response = await tenant.request('PATCH', `/assistants/${created.id}`, { ...created, name: 'n'.repeat(120) });
    // Assert
    expect(response.status).toBe(200);
    expect((await json(response)).name).toHaveLength(120);
  });

  it('rebuilds the prompt from the setup on save, and a hand edit clears the setup', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const created = await json(await tenant.request('POST', '/assistants', { template: 'receptionist' }));
    const withNewRule = { ...created.config, setup: { ...created.config.setup, never: 'Never quote prices.' } };
    // Act
    const rebuilt = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config: withNewRule }));
    const handEdited = await json(
      await tenant.request('PATCH', `/assistants/${created.id}`, { config: { ...rebuilt.config, system_prompt: 'My own words.' } }),
    );
    // Assert
    expect(rebuilt.config.system_prompt).toContain('Never quote prices.');
    expect(rebuilt.config.setup.never).toBe('Never quote prices.');
    expect(handEdited.config.setup).toBeNull();
    expect(handEdited.config.system_prompt).toBe('My own words.');
  });

  it('includes the business profile in a setup prompt only with business_context', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    await harness.admin.setProfile(tenant.businessId, { display_name: 'Bright Smile Dental' });
    const setup = { role: 'scheduler', name: 'Ava' };
    // Act
    const withContext = await json(await tenant.request('POST', '/assistants', { config: { setup } }));
    const without = await json(await tenant.request('POST', '/assistants', { config: { setup, business_context: false } }));
    // Assert
    expect(withContext.config.system_prompt).toContain('Bright Smile Dental');
    expect(without.config.system_prompt).not.toContain('Bright Smile Dental');
  });

  it('keeps model.custom_key write-only and reports custom_key_set', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const model = { provider: 'custom', custom_url: 'https://llm.example.com/v1', custom_key: 'sk-secret-123' };
    // Act
    const created = await tenant.request('POST', '/assistants', { config: { model } });
    const text = await created.text();
    const body = JSON.parse(text) as Json;
    const renamed = await json(await tenant.request('PATCH', `/assistants/${body.id}`, { name: 'x', config: body.config }));
    // Assert
    expect(text).not.toContain('sk-secret-123');
    expect(body.config.model.custom_key_set).toBe(true);
    expect(renamed.config.model.custom_key_set).toBe(true);
  });

  it('refuses unknown tool ids, knowledge ids and workflow ids with their loc', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const tool = await harness.admin.addTool(tenant.businessId, {
      name: 'lookup_order',
      description: 'Looks up an order',
      server_url: 'https://tools.example.com/lookup',
      parameters: { type: 'object', properties: {} },
      timeout_ms: 5000,
    });
    // Act
    const response = await tenant.request('POST', '/assistants', {
      config: { tool_ids: [tool.id, 999_999_999], knowledge_ids: [5], workflow_id: 3 },
    });
    // Assert
    expect(response.status).toBe(422);
    const locs = (await json(response)).detail.map((item: Json) => item.loc.join('.'));
    expect(locs).toEqual(['body.config.tool_ids.1', 'body.config.knowledge_ids.0', 'body.config.workflow_id']);
  });

  it('refuses a private server_url in production policy', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('POST', '/assistants', { config: { advanced: { server_url: 'http://169.254.169.254/latest' } } });
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(['body', 'config', 'advanced', 'server_url']);
  });

  it('lists newest first, makes the first the default, and promotes the oldest when the default is deleted', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const first = await json(await tenant.request('POST', '/assistants', { name: 'one' }));
    const second = await json(await tenant.request('POST', '/assistants', { name: 'two' }));
    const third = await json(await tenant.request('POST', '/assistants', { name: 'three' }));
    // Act
    const listed = await json(await tenant.request('GET', '/assistants'));
    const deleted = await tenant.request('DELETE', `/assistants/${first.id}`);
    const afterDelete = await json(await tenant.request('GET', `/assistants/${second.id}`));
    const gone = await tenant.request('GET', `/assistants/${first.id}`);
    // Assert
    expect(listed.data.map((a: Json) => a.name)).toEqual(['three', 'two', 'one']);
    expect([first.is_default, second.is_default, third.is_default]).toEqual([true, false, false]);
    expect(await json(deleted)).toEqual({ id: first.id, deleted: true });
    expect(afterDelete.is_default).toBe(true);
    expect(gone.status).toBe(404);
    expect(await json(gone)).toMatchObject({ code: 'not_found' });
  });

  it.each([
    ['GET', '/assistants/abc'],
    ['GET', '/assistants/0'],
    ['PATCH', '/assistants/1.5'],
    ['DELETE', '/assistants/-3'],
  ])('%s %s with a bad path id is a 422 with loc path', async (method, path) => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request(method, path, method === 'PATCH' ? {} : undefined);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(['path', 'assistant_id']);
  });

  it.each([
    ['malformed JSON', '{"name": ', 'application/json', 'json_invalid'],
    ['a JSON array', '[1,2]', 'application/json', 'model_attributes_type'],
  ])('POST with %s is a 422, never a 500', async (_case, raw, type, expected) => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('POST', '/assistants', raw, { 'content-type': type });
    // Assert
    expect(response.status).toBe(422);
    const body = await json(response);
    expect(body.detail[0]).toMatchObject({ loc: ['body'], type: expected });
  });

  it('POST with a lone surrogate (no character) is a 422 json_invalid at the field', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('POST', '/assistants', '{"name": "a\\ud800b"}', { 'content-type': 'application/json' });
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0]).toMatchObject({ loc: ['body', 'name'], type: 'json_invalid' });
  });

  it('POST with a surrogate pair (an emoji escaped) is accepted', async () => {
    const tenant = await harness.newTenant();
    const response = await tenant.request('POST', '/assistants', '{"name": "a\\ud83d\\ude00b"}', { 'content-type': 'application/json' });
    expect(response.status).toBe(200);
    expect((await json(response)).name).toBe('a😀b');
  });
});

describe('speech settings through POST and PATCH /assistants', () => {
  const errorsOf = async (response: Response) => {
    expect(response.status).toBe(422);
    return ((await json(response)).detail as Json[]).map((item) => ({ loc: item.loc.join('.'), msg: item.msg as string }));
  };

  it.each([
    [{ language: 'klingon' }, 'body.config.language', /language 'klingon' is not supported; use one of en \(English\), es \(Spanish\)/],
    [{ language: 'pt' }, 'body.config.language', /pt \(Portuguese\) has no Aura-2 voice, so it runs only with mode 'live'/],
    [{ transcriber: { provider: 'openai', model: 'flux-general-en' } }, 'body.config.transcriber.model', /'gpt-transcribe'/],
    [{ transcriber: { model: 'nova-9' } }, 'body.config.transcriber.model', /'flux-general-en', 'flux-general-multi'/],
    [{ live_voice: 'thalia' }, 'body.config.live_voice', /alloy/],
    [{ voice: { voice_id: 'aura-2-nobody-en' } }, 'body.config.voice.voice_id', /is not a Deepgram Aura-2 voice/],
    [
      { language: 'es', voice: { voice_id: 'aura-2-thalia-en' } },
      'body.config.voice.voice_id',
      /speaks en, but the assistant's language is es/,
    ],
  ])('refuses %j with a 422 at the setting, naming what is allowed (POST and PATCH)', async (config, loc, message) => {
    // Arrange
    const tenant = await harness.newTenant();
    const created = await json(await tenant.request('POST', '/assistants', { template: 'blank' }));
    // Act
    const posted = await errorsOf(await tenant.request('POST', '/assistants', { config }));
    const patched = await errorsOf(await tenant.request('PATCH', `/assistants/${created.id}`, { config }));
    // Assert
    for (const errors of [posted, patched]) {
      expect(errors).toHaveLength(1);
      expect(errors[0]!.loc).toBe(loc);
      expect(errors[0]!.msg).toMatch(message);
    }
  });

  it('provider openai without a model gets OpenAI’s default model, a live assistant in Portuguese is accepted, a Spanish one keeps the defaults', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const openai = await json(await tenant.request('POST', '/assistants', { config: { transcriber: { provider: 'openai' } } }));
    const live = await tenant.request('POST', '/assistants', { config: { language: 'pt-BR', mode: 'live', live_voice: 'coral' } });
    const spanish = await json(await tenant.request('POST', '/assistants', { config: { language: 'es-MX' } }));
    // Assert
    expect(openai.config.transcriber).toMatchObject({ provider: 'openai', model: 'gpt-transcribe' });
    expect(live.status).toBe(200);
    expect(spanish.config).toMatchObject({ language: 'es-MX', transcriber: { model: 'flux-general-en' }, voice: { voice_id: '' } });
  });
});
