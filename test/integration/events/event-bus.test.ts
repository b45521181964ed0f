import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallEvent } from '../../../shared/events/catalog';
import { EventBridgeBus, LocalEventRouter, PublishError } from '../../../shared/events/event-bus';
import { captureLogger } from '../../support/capture-logger';

/**
 * EventBridge has no local stand-in, so the adapter is tested against its documented wire contract:
 * a loopback server speaking the PutEvents JSON 1.1 protocol (X-Amz-Target: AWSEvents.PutEvents),
 * with the real AWS SDK client pointed at it.
 */
interface Received {
  target: string | undefined;
  contentType: string | undefined;
  entries: { Source: string; DetailType: string; Detail: string; EventBusName: string }[];
}

let server: Server;
let endpoint: string;
const received: Received[] = [];
let failPlan: string[][] = []; // per request: error codes for entries ('' = success)

async function body(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const parsed = JSON.parse(await body(request)) as { Entries: Received['entries'] };
    received.push({
      target: request.headers['x-amz-target'] as string,
      contentType: request.headers['content-type'],
      entries: parsed.Entries,
    });
    const plan = failPlan.shift() ?? [];
    const entries = parsed.Entries.map((_, i) =>
      plan[i] ? { ErrorCode: plan[i], ErrorMessage: 'throttled' } : { EventId: `evt-${received.length}-${i}` },
    );
    response.setHeader('content-type', 'application/x-amz-json-1.1');
    response.end(JSON.stringify({ FailedEntryCount: entries.filter((e) => 'ErrorCode' in e).length, Entries: entries }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function event(i: number, type: CallEvent['type'] = 'call.ended', webhook?: boolean): CallEvent {
  return {
    type,
    detail: {
      event_id: `e${i}`,
      business_id: 1,
      call_id: 100 + i,
      assistant_id: 5,
      occurred_at: '2026-11-23T10:00:00.000Z',
      ...(webhook !== undefined && { webhook }),
    },
  };
}

function bus(attempts = 4) {
  const client = new EventBridgeClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  return new EventBridgeBus(client, 'voice-agent-test', { attempts, sleep: async () => undefined });
}

describe('EventBridgeBus (PutEvents wire contract)', () => {
  it('sends PutEvents with source, detail-type, JSON detail and bus name, 10 entries per request', async () => {
    // Arrange
    received.length = 0;
    // Act
    await bus().publish(Array.from({ length: 12 }, (_, i) => event(i)));
    // Assert
    expect(received.map((r) => r.entries.length)).toEqual([10, 2]);
    expect(received[0]!.target).toBe('AWSEvents.PutEvents');
    expect(received[0]!.contentType).toContain('application/x-amz-json-1.1');
    expect(received[0]!.entries[0]).toMatchObject({ Source: 'voice-agent', DetailType: 'call.ended', EventBusName: 'voice-agent-test' });
    expect(JSON.parse(received[0]!.entries[0]!.Detail)).toMatchObject({ call_id: 100 });
  });

  it('retries only the entries that failed (FailedEntryCount > 0)', async () => {
    // Arrange
    received.length = 0;
    failPlan = [['', 'ThrottlingException', ''], []];
    // Act
    await bus().publish([event(1), event(2), event(3)]);
    // Assert
    expect(received).toHaveLength(2);
    expect(received[1]!.entries.map((e) => JSON.parse(e.Detail).call_id)).toEqual([102]);
  });

  it('throws PublishError naming the entries that still fail after the attempts', async () => {
    // Arrange
    failPlan = [['InternalFailure'], ['InternalFailure']];
    // Act
    const result = bus(2).publish([event(9)]);
    // Assert
    await expect(result).rejects.toBeInstanceOf(PublishError);
    failPlan = [];
  });
});

describe('LocalEventRouter', () => {
  it('routes by the shared rule declarations: call.ended to analysis, the rest to webhooks when subscribed', async () => {
    // Arrange
    const seen: string[] = [];
    const router = new LocalEventRouter({
      analysis: async (e) => void seen.push(`analysis:${e.type}`),
      webhooks: async (e) => void seen.push(`webhooks:${e.type}:${e.detail.call_id}`),
    });
    // Act
    await router.publish([
      event(1, 'call.started', true),
      event(2, 'call.ended'),
      event(3, 'call.transferred', true),
      event(4, 'call.completed', true),
      event(5, 'call.started', false),
      event(6, 'call.completed', false),
      event(7, 'call.completed'),
    ]);
    await router.drain();
    // Assert
    expect(seen.sort()).toEqual([
      'analysis:call.ended',
      'webhooks:call.completed:104',
      'webhooks:call.started:101',
      'webhooks:call.transferred:103',
    ]);
  });

  it('retries a failing target and reports it without throwing at the publisher', async () => {
    // Arrange
    let calls = 0;
    const logs = captureLogger();
    const router = new LocalEventRouter(
      {
        analysis: async () => void calls++,
        webhooks: async () => {
          calls++;
          throw new Error('down');
        },
      },
      logs.log,
    );
    // Act
    await router.publish([event(1, 'call.completed', true)]);
    await router.drain();
    // Assert
    expect(calls).toBe(3);
    expect(logs.messages()[0]).toMatch(/webhooks failed for call.completed/);
    expect(logs.lines[0]!.fields?.error).toEqual(new Error('down'));
  });
});
