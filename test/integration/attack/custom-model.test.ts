import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAssistantConfig } from '../../../shared/domain/assistant-config';
import { customKeyContext } from '../../../shared/services/assistant-service';
import type { LookupAll } from '../../../shared/security/ssrf';
import { languageModelsOver, modelSources } from '../../../media-service/src/server/language-models';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { callScripted, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * Attack suite, the custom model endpoint (`model.provider: custom`): a business's URL can neither
 * redirect the call engine elsewhere nor rebind its name to another address after the SSRF check,
 * and the business's stored key never follows the config to a new address.
 */

let stack: CallStack;
const servers: Server[] = [];

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** A loopback HTTP server answering every request with `answer`; counts the requests it got. */
async function server(host: string, port: number, answer: (res: import('node:http').ServerResponse) => void) {
  const hits: string[] = [];
  const http = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    answer(res);
  });
  servers.push(http);
  await new Promise<void>((resolve, reject) => http.once('error', reject).listen(port, host, () => resolve()));
  return { hits, port: (http.address() as AddressInfo).port };
}

describe('attack: a custom model URL that redirects to an internal address', () => {
  it('is refused, never followed: the call ends error saying why, and the internal address sees nothing', async () => {
    // Arrange
    const internal = await server('127.0.0.1', 0, (res) => res.end('INTERNAL-SECRET'));
    const evil = await server('127.0.0.1', 0, (res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${internal.port}/v1/chat/completions` });
      res.end('see internal');
    });
    const model = { provider: 'custom', custom_url: `http://127.0.0.1:${evil.port}/v1`, custom_key: 'sk-biz-key' };
    const steps = [waitForAssistant(), step.say('What are your opening hours?'), waitForAssistant(), step.hangup()];
    // Act
    const { tenant, callId } = await callScripted(
      stack,
      { first_message: 'Hello from Acme.', model, advanced: { ...QUIET, safety_fallback: false } },
      steps,
    );
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('error');
    expect((detail.metrics as { providers?: { llm?: string } }).providers?.llm).toBe('custom');
    expect(evil.hits.length).toBeGreaterThan(0);
    expect(internal.hits).toEqual([]);
    const failure = stack.logs.find((log) => log.message === 'call.provider.failed' && log.fields?.call_id === callId);
    expect(String(failure?.fields?.error)).toMatch(/^custom_url refused: the server answered a redirect \(HTTP 307\)/);
    expect(JSON.stringify(stack.logs)).not.toContain('INTERNAL-SECRET');
  });
});

describe('attack: DNS rebinding of a custom model URL', () => {
  it('connects only to the address the SSRF check approved, whatever the name resolves to next', async () => {
    // Arrange: the approved endpoint listens on 127.0.0.2, an "internal" service on 127.0.0.1, same port.
    const approved = await OpenAiSandboxServer.start({ host: '127.0.0.2', apiKey: 'sk-biz-key', ttftMs: 1 });
    const port = Number(new URL(approved.baseUrl).port);
    const internal = await server('127.0.0.1', port, (res) => res.end('INTERNAL-SECRET'));
    const answers: string[] = [];
    const lookup: LookupAll = async () => {
      const address = answers.length === 0 ? '127.0.0.2' : '127.0.0.1';
      answers.push(address);
      return [{ address, family: 4 }];
    };
    const factory = languageModelsOver(
      modelSources({ openai: { apiKey: 'unused' }, allowPrivateUrls: true, lookup }),
      stack.core.secretBox,
    );
    const sealed = await stack.core.secretBox.seal('sk-biz-key', customKeyContext(7));
    const config = defaultAssistantConfig();
    const custom = { ...config, model: { ...config.model, provider: 'custom' as const, custom_url: `http://localhost:${port}/v1` } };
    // Act
    const model = await factory(7, custom, sealed);
    const stream = model.stream({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0,
      maxTokens: 50,
      priority: false,
      race: false,
      signal: new AbortController().signal,
    });
    const chunks: string[] = [];
    for await (const chunk of stream) if (chunk.type === 'text') chunks.push(chunk.text);
    await approved.close();
    // Assert
    expect(answers).toEqual(['127.0.0.2']);
    expect(approved.requests).toHaveLength(1);
    expect(internal.hits).toEqual([]);
    expect(chunks.join('')).not.toBe('');
  });
});

describe('attack: the stored custom_key and a changed custom_url', () => {
  /** A tenant with an assistant on a custom endpoint whose key is stored. */
  async function assistantWithCustomKey() {
    const tenant = await stack.api.newTenant();
    const model = { provider: 'custom', custom_url: 'https://llm.example.com/v1', custom_key: 'sk-secret-123' };
    const created = await json(await tenant.request('POST', '/assistants', { config: { model } }));
    expect(created.config.model.custom_key_set).toBe(true);
    return { tenant, created };
  }

  it('drops the stored key when a PATCH changes custom_url without sending a new key', async () => {
    // Arrange
    const { tenant, created } = await assistantWithCustomKey();
    const config = { ...created.config, model: { ...created.config.model, custom_url: 'https://attacker.example.net/v1' } };
    // Act
    const patched = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config }));
    // Assert
    expect(patched.config.model.custom_key_set).toBe(false);
    const stored = await stack.core.assistantRepo.getAssistant(tenant.businessId, created.id);
    expect(stored.custom_key_sealed).toBeUndefined();
  });

  it('drops the stored key when the provider changes, so switching back does not revive it', async () => {
    // Arrange
    const { tenant, created } = await assistantWithCustomKey();
    const toOpenAi = { ...created.config, model: { ...created.config.model, provider: 'openai' } };
    // Act
    await tenant.request('PATCH', `/assistants/${created.id}`, { config: toOpenAi });
    const back = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config: created.config }));
    // Assert
    expect(back.config.model.custom_key_set).toBe(false);
  });

  it('keeps the key for the same URL, and takes a new key sent with a new URL', async () => {
    // Arrange
    const { tenant, created } = await assistantWithCustomKey();
    const moved = {
      ...created.config,
      model: { ...created.config.model, custom_url: 'https://llm2.example.com/v1', custom_key: 'sk-new-456' },
    };
    // Act
    const same = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config: created.config }));
    const withNewKey = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config: moved }));
    // Assert
    expect(same.config.model.custom_key_set).toBe(true);
    expect(withNewKey.config.model.custom_key_set).toBe(true);
    expect(JSON.stringify(withNewKey)).not.toContain('sk-new-456');
  });
});
