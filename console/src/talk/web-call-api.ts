import { api, must, type Schemas } from '../api/client';

/**
 * The answer of `POST /calls/web` (docs/protocols.md "Web calls"): the call's id, where to open
 * the WebSocket, and the single-use token (valid 60 s) to start it with.
 */
export type WebCallGrant = Schemas['WebCall'];

/** Creates a web call of the assistant (the same minutes check as a phone call: 402 `insufficient_minutes`). */
export async function createWebCall(assistantId: number): Promise<WebCallGrant> {
  return must(await api.POST('/calls/web', { body: { assistant_id: assistantId } }));
}
