import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../shared/db/call-repository';
import type { ToolRecord } from '../../../../shared/db/tool-repository';
import { silentLogger } from '../../../../shared/log';
import { loadCustomTools, replyResult, TOOL_REPLY_MAX_CHARS } from '../../../../media-service/src/tools/custom-tools';
import { ToolFailureError } from '../../../../media-service/src/tools/tool-types';
import { TOOL_ARGUMENTS_MAX_CHARS } from '../../../../media-service/src/tools/tool-runner';
import { runnerForTools } from '../../../support/tool-runner';
import { Webhook } from 'standardwebhooks';
import type { GuardedRequestInit } from '../../../../shared/security/guarded-fetch';
import { buildOpenApiDocument } from '../../../../shared/domain/openapi';
import { strictResponseErrors } from '../../../support/openapi-strict';

const TOOL: ToolRecord = {
  id: 7,
  name: 'lookup_order',
  description: 'Looks up an order.',
  parameters: { type: 'object', properties: { order_id: { type: 'string', pattern: '^[A-Z]{2}[0-9]{4}$' } }, required: ['order_id'] },
  server_url: 'https://127.0.0.1/tools',
  timeout_ms: 2000,
  created_at: '2026-11-26T10:00:00.000Z',
};

const CALL = {
  id: 40,
  business_id: 3,
  assistant_id: 5,
  direction: 'inbound',
  from_number: '+14155550199',
  to_number: '+15550100001',
} as CallRecord;

const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;

/** The custom tools of a call whose back end serves `records`; nothing here reaches the network. */
async function toolsOf(records: ToolRecord[], allowPrivate = false, fetch?: (init: GuardedRequestInit) => void) {
  return loadCustomTools(
    {
      call: CALL,
      sealedSecret: 'sealed',
      log: silentLogger,
      backend: {
        load: async () => records,
        signingSecret: async () => SECRET,
        allowPrivate,
        ...(fetch && {
          fetch: async (_url: string, init: GuardedRequestInit) => {
            fetch(init);
            return { status: 200, headers: {}, bodyText: '{"status": "shipped"}', bodyTruncated: false, latencyMs: 1 };
          },
        }),
      },
    },
    records.map((record) => record.id),
  );
}

describe('a custom tool on a call', () => {
  it('is offered with its own schema, and checks arguments against it in words for the model', async () => {
    // Act
    const [tool] = await toolsOf([{ ...TOOL, filler: 'Let me look.' }]);
    // Assert
    expect(tool!.definition).toEqual({ name: 'lookup_order', description: 'Looks up an order.', parameters: TOOL.parameters });
    expect(tool!.filler).toBe('Let me look.');
    expect(tool!.checkArgs!({ order_id: 'AB1234' })).toBeNull();
    expect(tool!.checkArgs!({ order_id: 'ab12' })).toBe('order_id must match pattern "^[A-Z]{2}[0-9]{4}$"');
    expect(tool!.checkArgs!({})).toBe("arguments must have required property 'order_id'");
  });

  it('refuses a private server_url at call time when private targets are not allowed (the SSRF guard)', async () => {
    // Arrange
    const [tool] = await toolsOf([TOOL]);
    // Act
    const failure = await tool!.execute({ order_id: 'AB1234' }, { signal: new AbortController().signal } as never).catch((error) => error);
    // Assert
    expect(failure).toBeInstanceOf(ToolFailureError);
    expect(failure).toMatchObject({ kind: 'blocked' });
    expect(failure.message).toBe(
      "The business's system for lookup_order could not be reached. Tell the caller you could not do that right now.",
    );
  });

  it("a request cut short by the call's end (the caller hung up) is not the business's system failing", async () => {
    // Arrange: the request is refused the way an aborted fetch rejects
    const ended = new AbortController();
    const [tool] = await toolsOf([TOOL], false, () => {
      ended.abort();
      throw new DOMException('This operation was aborted', 'AbortError');
    });
    // Act
    const failure = await tool!.execute({ order_id: 'AB1234' }, { signal: ended.signal } as never).catch((error) => error);
    // Assert
    expect(failure).toBeInstanceOf(ToolFailureError);
    expect(failure).toMatchObject({ kind: 'call_ended', message: 'The call ended before lookup_order finished.' });
  });

  it("sends what the OpenAPI document's `tool.call` webhook describes: the body (checked strictly), its headers, a signature that verifies", async () => {
    // Arrange
    let sent: GuardedRequestInit | undefined;
    const [tool] = await toolsOf([TOOL], false, (init) => (sent = init));
    const webhook = (buildOpenApiDocument().webhooks as Record<string, any>)['tool.call'].post;
    const documented = webhook.parameters.map((parameter: { $ref: string }) => parameter.$ref.split('/').at(-1));
    const parameters = buildOpenApiDocument().components as { parameters: Record<string, { name: string }> };
    // Act
    const result = await tool!.execute({ order_id: 'AB1234' }, { signal: new AbortController().signal } as never);
    // Assert
    expect(result.output).toEqual({ status: 'shipped' });
    expect(strictResponseErrors('ToolCallEvent', JSON.parse(sent!.body!))).toEqual([]);
    for (const name of documented) expect(sent!.headers).toHaveProperty(parameters.parameters[name]!.name);
    expect(new Webhook(SECRET).verify(sent!.body!, sent!.headers!)).toMatchObject({ type: 'tool.call', data: { tool: { id: 7 } } });
  });

  it('leaves out a stored tool whose schema no longer compiles', async () => {
    // Act
    const tools = await toolsOf([{ ...TOOL, id: 8, parameters: { type: 'object', properties: { n: { type: 'integr' } } } }, TOOL]);
    // Assert
    expect(tools.map((tool) => tool.definition.name)).toEqual(['lookup_order']);
  });

  it('leaves out a stored tool named as a platform tool (saved before the name was reserved)', async () => {
    // Act
    const tools = await toolsOf([{ ...TOOL, id: 8, name: 'search_knowledge' }, { ...TOOL, id: 9, name: 'Next_Step' }, TOOL]);
    // Assert
    expect(tools.map((tool) => tool.definition.name)).toEqual(['lookup_order']);
  });
});

describe("a custom tool's arguments from a model the business runs", () => {
  it('refuses arguments longer than the bound before checking them (uniqueItems compares every pair)', async () => {
    // Arrange: a schema whose check is quadratic in the array, and ~270 kB of arguments
    const [tool] = await toolsOf([{ ...TOOL, parameters: { type: 'object', properties: { a: { type: 'array', uniqueItems: true } } } }]);
    const runner = runnerForTools([tool as never], {});
    const huge = JSON.stringify({ a: Array.from({ length: 20_000 }, (_, i) => ({ k: [i] })) });
    // Act
    const started = performance.now();
    const answer = JSON.parse(await runner.run({ name: 'lookup_order', arguments: huge }));
    // Assert
    expect(performance.now() - started).toBeLessThan(1000);
    expect(answer.error).toBe(
      `The arguments were longer than ${TOOL_ARGUMENTS_MAX_CHARS} characters. Call the tool again with shorter ones.`,
    );
  });
});

describe('a tool server reply as the model gets it', () => {
  it.each<[string, string, boolean, Record<string, unknown>]>([
    ['a JSON object as it is', '{"status":"shipped"}', false, { status: 'shipped' }],
    ['other JSON under result', '[1,2]', false, { result: [1, 2] }],
    ['text under result', 'Shipped yesterday.', false, { result: 'Shipped yesterday.' }],
    ['text without control characters', 'Ship\u0000ped\u001b[31m\tred\nyes', false, { result: 'Shipped[31m\tred\nyes' }],
    [
      'a long reply cut, with a note',
      'x'.repeat(TOOL_REPLY_MAX_CHARS + 10),
      true,
      { result: 'x'.repeat(TOOL_REPLY_MAX_CHARS), note: `The reply was longer than ${TOOL_REPLY_MAX_CHARS} characters and was cut.` },
    ],
  ])('%s', (_name, text, truncated, output) => {
    // Act
    const result = replyResult(200, text, truncated);
    // Assert
    expect(result.output).toEqual(output);
    expect(result.summary.startsWith('HTTP 200: ')).toBe(true);
  });
});
