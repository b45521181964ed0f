import { COMMON_HEADERS } from './openapi-headers';
import * as call from './call';
import { ListMessagesQuerySchema } from './message';
import {
  BODY_ERRORS,
  body,
  idParam,
  idempotencyKeyParam,
  INVALID,
  jsonResponse,
  NOT_FOUND,
  op,
  queryParams,
  responses,
  type Json,
} from './openapi-operations';
import { BYTE_BUDGET, CURSOR, LIST_PAGING_NOTE, offsetText } from './openapi-paging';

/**
 * The OpenAPI paths of calls (/calls) and of the messages callers leave on them (/messages);
 * functions only, called while the document is built.
 */

const CALL_PAGE_PARAMS = {
  limit: `At most this many calls (1 to 200, default 50). ${BYTE_BUDGET}`,
  offset:
    'Calls to skip, newest first (spec; no upper bound). Skipping N calls reads N keys, so a deep offset is slow: walk with `cursor` instead, ' +
    'which costs one page at any depth. Not with `cursor`.',
  cursor: CURSOR,
  direction: 'Only calls in this direction (web calls are `inbound`).',
  channel: 'Only calls over this channel: `phone`, or `web` (browser calls, POST /calls/web).',
  status: 'Only calls in this status.',
  outcome: 'Only calls with this outcome.',
  created_after: 'Only calls created at or after this instant (ISO 8601; a date is its midnight UTC).',
  created_before: 'Only calls created before this instant (exclusive); after `created_after` or equal to it.',
};

export function callPaths(): Json {
  return {
    '/calls': {
      get: {
        ...op(
          'listCalls',
          'Calls',
          `List calls, newest first, one page at a time.${LIST_PAGING_NOTE}`,
          responses(jsonResponse('One page of calls.', 'CallsPage'), INVALID),
        ),
        parameters: queryParams(call.ListCallsQuerySchema, CALL_PAGE_PARAMS),
      },
      post: {
        ...op(
          'createCall',
          'Calls',
          'Start an outbound call; it is returned queued, and analysed once it ends.',
          responses(jsonResponse('The call in its initial state.', 'Call'), {
            '402': 'InsufficientMinutes',
            ...NOT_FOUND,
            '409': 'IdempotencyConflict',
            ...BODY_ERRORS,
          }),
        ),
        parameters: [idempotencyKeyParam()],
        requestBody: body('CreateCallBody'),
      },
    },
    '/calls/web': {
      post: {
        ...op(
          'createWebCall',
          'Calls',
          'Start a web call: a browser talks to the assistant over a WebSocket. The call is created queued (`channel: web`, `direction: inbound`, ' +
            'no numbers) and answered with `url` and a single-use `token`, valid 60 s: open `url`, send `{"type":"start","token":…}` first. ' +
            "A browser's `Origin` must be one of the business's `web_origins` or the console's. Minutes, variables and Idempotency-Key as POST /calls; " +
            'a replay with the same key and body answers the same call with a new token (the earlier one stops working), or 409 `conflict` once the call was joined or ended. ' +
            'A call nobody joins ends `canceled` within about two minutes.',
          responses(
            jsonResponse('The call, where to connect, and its token (never cached: `Cache-Control: no-store`).', 'WebCall', [
              ...COMMON_HEADERS,
              'Cache-Control',
            ]),
            {
              '402': 'InsufficientMinutes',
              ...NOT_FOUND,
              '409': 'WebCallConflict',
              ...BODY_ERRORS,
              '503': 'WebCallsUnavailable',
            },
          ),
        ),
        parameters: [idempotencyKeyParam()],
        requestBody: body('CreateWebCallBody'),
      },
    },
    '/calls/{call_id}': {
      parameters: [idParam('call_id')],
      get: op(
        'getCall',
        'Calls',
        'Get a call with its transcript, analysis, metrics, recording and webhook deliveries.',
        responses(jsonResponse('The call.', 'CallDetail'), { ...NOT_FOUND, ...INVALID }),
      ),
    },
    '/calls/{call_id}/listen': {
      parameters: [idParam('call_id')],
      post: op(
        'listenToCall',
        'Calls',
        'Listen to a call in progress, phone or web: answered with `url` and a single-use `token`, valid 60 s. Open `url`, send ' +
          '`{"type":"start","token":…}`: the socket then streams both sides of the call mixed (16 kHz PCM16LE) and the live transcript, ' +
          "state, latency and tool events a web call gets; it is read-only. A browser's `Origin` is checked as for web calls.",
        responses(jsonResponse('Where to connect, and the token.', 'CallListen'), {
          ...NOT_FOUND,
          '409': 'CallNotLive',
          ...INVALID,
          '503': 'WebCallsUnavailable',
        }),
      ),
    },
    '/calls/{call_id}/end': {
      parameters: [idParam('call_id')],
      post: op(
        'endCall',
        'Calls',
        'End a live call (queued, ringing or in progress; phone or web): the request is taken at once (202) and the call ends ' +
          'with `ended_reason: canceled` within about two seconds once its media stream runs (a queued or ringing call ends as soon as ' +
          'it is answered). Repeating it is harmless.',
        accepted(
          responses(jsonResponse('The request is taken; the call is still live.', 'CallEndRequest'), {
            ...NOT_FOUND,
            '409': 'CallAlreadyEnded',
            ...INVALID,
          }),
        ),
      ),
    },
  };
}

/** An operation whose success is 202 Accepted rather than 200. */
function accepted(answers: Json): Json {
  const { '200': success, ...rest } = answers as Record<string, Json>;
  return { '202': success, ...rest };
}

/** The error responses of the call operations (merged into `components/responses`). */
export function callErrorResponses(): Record<string, Json> {
  return {
    WebCallConflict: jsonResponse(
      'Idempotency-Key reused with a different body, or its first request still running (`idempotency_conflict`); ' +
        'or a replay for a web call that was already joined or has ended (`conflict`): create a new one.',
      'ErrorBody',
    ),
    CallNotLive: jsonResponse('The call is not in progress (queued, ringing or ended): `call_not_live`.', 'ErrorBody'),
    CallAlreadyEnded: jsonResponse('The call has already ended (`conflict`).', 'ErrorBody'),
    WebCallsUnavailable: jsonResponse('This deployment has no web-call endpoint configured (`web_calls_unavailable`).', 'ErrorBody'),
  };
}

export function messagePaths(): Json {
  const list = `List the messages callers left (take_message, notify_team), newest first; \`from\` inclusive, \`to\` exclusive, \`from\` not after \`to\`.${LIST_PAGING_NOTE}`;
  return {
    '/messages': {
      get: {
        ...op('listMessages', 'Messages', list, responses(jsonResponse('One page of messages.', 'MessagesPage'), INVALID)),
        parameters: queryParams(ListMessagesQuerySchema, { cursor: CURSOR, offset: offsetText('Messages to skip') }),
      },
    },
    '/messages/{message_id}': {
      parameters: [idParam('message_id')],
      get: op(
        'getMessage',
        'Messages',
        'Get one message.',
        responses(jsonResponse('The message.', 'Message'), { ...NOT_FOUND, ...INVALID }),
      ),
    },
  };
}
