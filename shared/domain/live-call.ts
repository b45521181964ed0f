import * as v from 'valibot';
import { CALL_STATUSES } from './call';
import { idField, strictDict, timestampField } from './validation';

/**
 * Live calls seen from outside (docs/api-tour.md "Listening to a live call"): a single-use token to
 * listen to one (both sides' audio and the live transcript, read-only) and a request to end one.
 */

/** How long a listen token can be redeemed: as long as a web call's. */
export const LISTEN_TOKEN_TTL_MS = 60_000;

/** The path of the call engine's listen socket, beside `/web/calls` on the same origin. */
export const LISTEN_PATH = '/web/listen';

/** The POST /calls/{id}/listen answer. */
export const CallListenSchema = strictDict({
  url: v.pipe(v.string(), v.description('The WebSocket to open (`ws://` or `wss://`, path `/web/listen`).')),
  token: v.pipe(
    v.string(),
    v.description(
      'Send it as the first message, `{"type":"start","token":…}`. Single use, valid 60 s; shown only here (the call stores its SHA-256).',
    ),
  ),
  expires_at: v.pipe(timestampField(), v.description('When the token stops working: 60 s after it was issued.')),
});

/** A listen grant, as POST /calls/{id}/listen returns it. */
export type CallListen = v.InferOutput<typeof CallListenSchema>;

/** The POST /calls/{id}/end answer: the request is taken; the call ends `canceled` within about two seconds. */
export const CallEndRequestSchema = strictDict({
  id: idField(),
  status: v.pipe(v.picklist(CALL_STATUSES), v.description('The call status when the request was taken (it is still live then).')),
});

/** An accepted end request. */
export type CallEndRequest = v.InferOutput<typeof CallEndRequestSchema>;

/**
 * The listen socket's URL from the web-call socket's (`WEB_CALL_URL`): the same origin, path
 * `/web/listen`. Undefined when that URL does not parse.
 */
export function listenUrlFrom(webCallUrl: string): string | undefined {
  try {
    return new URL(LISTEN_PATH, webCallUrl).toString();
  } catch {
    return undefined;
  }
}
