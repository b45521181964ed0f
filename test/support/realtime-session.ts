import { OpenAiRealtime } from '../../media-service/src/adapters/openai-realtime';
import type { S2sEvent, S2sOpenOptions, S2sSession } from '../../media-service/src/ports/speech-to-speech';
import { silentLogger } from '../../shared/log';

/** The `end_call` tool the Realtime adapter tests open their sessions with. */
export const END_CALL = { name: 'end_call', description: 'Hang up.', parameters: { type: 'object', properties: {} } };

/** A live session on the OpenAI Realtime adapter at `baseUrl` (the sandbox, or a hop in front of it), with its events watched. */
export function openRealtimeSession(target: { baseUrl: string; apiKey?: string }, tag: string, overrides: Partial<S2sOpenOptions> = {}) {
  const realtime = new OpenAiRealtime({ apiKey: target.apiKey ?? 'sk-right', baseUrl: target.baseUrl, sendTag: true, log: silentLogger });
  const session = realtime.open({
    instructions: 'You are a receptionist.',
    voice: 'marin',
    tools: [END_CALL],
    language: 'en-US',
    speed: 1,
    interruptResponse: true,
    tag,
    signal: new AbortController().signal,
    ...overrides,
  });
  return { session, ...watchSession(session) };
}

/** Every event of `session`, and `until(type, test)`: the first such event, past or to come. */
export function watchSession(session: S2sSession) {
  const events: S2sEvent[] = [];
  const waiters: { test: (event: S2sEvent) => boolean; resolve: (event: S2sEvent) => void }[] = [];
  session.on((event) => {
    events.push(event);
    for (const waiter of waiters.filter((w) => w.test(event))) waiter.resolve(event);
  });
  const until = <T extends S2sEvent['type']>(type: T, test: (event: Extract<S2sEvent, { type: T }>) => boolean = () => true) =>
    new Promise<Extract<S2sEvent, { type: T }>>((resolve) => {
      const found = events.find((event) => event.type === type && test(event as Extract<S2sEvent, { type: T }>));
      if (found) return resolve(found as Extract<S2sEvent, { type: T }>);
      waiters.push({
        test: (event) => event.type === type && test(event as Extract<S2sEvent, { type: T }>),
        resolve: (event) => resolve(event as Extract<S2sEvent, { type: T }>),
      });
    });
  return { events, until };
}
