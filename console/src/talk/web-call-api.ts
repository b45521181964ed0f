import { api, must } from '../api/client';

/**
 * The answer of `POST /calls/web` (docs/protocols.md "Web calls"): the call's id, where to open
 * the WebSocket, and the single-use token (valid 60 s) to start it with.
 *
 * Written by hand only until the route is in console/src/api/schema.d.ts: once `npm run
 * gen:console-api` has picked it up, this becomes `Schemas['…']` and the call below an ordinary
 * typed `api.POST('/calls/web', …)`, and the casts go.
 */
export interface WebCallGrant {
  call_id: number;
  url: string;
  token: string;
  expires_at: string;
}

/** Creates a web call of the assistant (the same minutes check as a phone call: 402 `insufficient_minutes`). */
export async function createWebCall(assistantId: number): Promise<WebCallGrant> {
  const post = api.POST.bind(api) as unknown as (
    path: '/calls/web',
    init: { body: { assistant_id: number } },
  ) => Promise<{ data?: WebCallGrant; error?: unknown; response: Response }>;
  return must(await post('/calls/web', { body: { assistant_id: assistantId } }));
}
