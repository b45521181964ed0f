import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestId } from 'hono/request-id';
import { buildOpenApiDocument, OPENAPI_VERSION } from '../../shared/domain/openapi';
import type { ApiErrorCode } from '../../shared/domain/error-codes';
import { RATE_LIMIT_POLICY } from '../../shared/domain/rate-limits';
import { boundedInput } from '../../shared/domain/validation-errors';
import { AppError, AuthThrottledError, RateLimitedError, UnauthorizedError, ValidationError } from '../../shared/errors';
import type { IdempotencyRepository } from '../../shared/db/idempotency-repository';
import type { AssistantService } from '../../shared/services/assistant-service';
import type { BookingService } from '../../shared/services/booking-service';
import type { BusinessService } from '../../shared/services/business-service';
import type { CallService } from '../../shared/services/call-service';
import type { WebCallService } from '../../shared/services/web-call-service';
import type { LiveCallService } from '../../shared/services/live-call-service';
import type { MessageService } from '../../shared/services/message-service';
import type { PhoneNumberService } from '../../shared/services/phone-number-service';
import type { ToolService } from '../../shared/services/tool-service';
import type { KnowledgeService } from '../../shared/services/knowledge-service';
import type { WorkflowService } from '../../shared/services/workflow-service';
import type { ApiEnv } from './env';
import { auth, type FindApiKey, type SourceAddress } from './middleware/auth';
import { consoleCors } from './middleware/console-cors';
import { feedRateLimit, type FeedRateLimit } from './middleware/feed-rate-limit';
import { refuseUnreadQuery } from './middleware/query-params';
import { rateLimit, type RateLimit } from './middleware/rate-limit';
import { assistantRoutes } from './routes/assistants';
import { availabilityRoutes, bookingRoutes, bookingsIcsRoute, calendarFeedRoute } from './routes/bookings';
import { businessRoutes } from './routes/business';
import { callRoutes } from './routes/calls';
import { catalogRoutes } from './routes/catalog';
import { messageRoutes } from './routes/messages';
import { toolRoutes } from './routes/tools';
import { knowledgeRoutes } from './routes/knowledge';
import { workflowRoutes } from './routes/workflows';
import { usageRoutes } from './routes/usage';
import type { Logger } from '../../shared/log';

/** Everything the HTTP layer needs; built by the composition root (`functions/lib/deps.ts`) or a test. */
export interface ApiDeps {
  assistants: AssistantService;
  calls: CallService;
  /** POST /calls/web: browser calls and their single-use tokens. */
  webCalls: WebCallService;
  /** Listening to a live call and ending it. */
  liveCalls: LiveCallService;
  /** The console's origin: the one origin CORS answers (unset: no CORS headers, the console is served same-origin). */
  consoleOrigin?: string;
  messages: MessageService;
  business: BusinessService;
  bookings: BookingService;
  phoneNumbers: PhoneNumberService;
  tools: ToolService;
  /** Knowledge bases, their documents and search. */
  knowledge: KnowledgeService;
  workflows: WorkflowService;
  /** Idempotency-Key records of every create route. */
  idempotency: IdempotencyRepository;
  findApiKey: FindApiKey;
  rateLimiter: RateLimit;
  /** The public calendar feed's limiter (per client address and per token; no API key to count). */
  feedRateLimiter: FeedRateLimit;
  now: () => number;
  log: Logger;
  authCacheMs?: number;
  /** The client's address, for throttling failed authentications and the calendar feed (default: from the platform's event or socket). */
  sourceAddress?: SourceAddress;
}

/** Where the API's routes live (spec: `{base_url}` ends in it). */
const API_PREFIX = '/api/v1';

/** The public API version, sent as `X-API-Version` on every response. */
export const API_VERSION = OPENAPI_VERSION;

/** An error body answered without throwing (404 and 405 from routing, the 500 fallback): its code typed, like `AppError`'s. */
const errorBody = (code: ApiErrorCode, detail: string) => ({ code, detail });

/**
 * The one Hono app behind every route: served by `@hono/node-server` locally and by
 * `hono/aws-lambda` on Lambda. Reads no env and builds no clients, so tests call
 * `createApp(deps).request(...)` against real repositories.
 */
export function createApp(deps: ApiDeps) {
  const openApi = JSON.stringify(buildOpenApiDocument());
  const idempotency = { store: deps.idempotency, now: deps.now };
  const api = new Hono<ApiEnv>()
    .get('/openapi.json', (c) => c.body(openApi, 200, { 'content-type': 'application/json' }))
    // Calendar apps cannot send a key: the feed's secret token is its credential (404 when unknown or revoked).
    .use('/calendars/*', feedRateLimit(deps.feedRateLimiter, deps.sourceAddress))
    .route('/calendars', calendarFeedRoute(deps.business))
    .use(
      auth({
        findApiKey: deps.findApiKey,
        now: deps.now,
        cacheMs: deps.authCacheMs,
        ...(deps.sourceAddress && { sourceAddress: deps.sourceAddress }),
      }),
    )
    .use(rateLimit(deps.rateLimiter))
    .use(refuseUnreadQuery(API_PREFIX))
    .route('/assistants', assistantRoutes(deps.assistants, idempotency))
    .route('/calls', callRoutes(deps.calls, deps.webCalls, deps.liveCalls))
    .route('/usage', usageRoutes(deps.calls))
    .route('/messages', messageRoutes(deps.messages))
    .route('/business', businessRoutes(deps.business))
    .route('/availability', availabilityRoutes(deps.bookings))
    .route('/bookings.ics', bookingsIcsRoute(deps.business))
    .route('/bookings', bookingRoutes(deps.bookings))
    .route('/tools', toolRoutes(deps.tools, idempotency))
    .route('/knowledge-bases', knowledgeRoutes(deps.knowledge, idempotency))
    .route('/workflows', workflowRoutes(deps.workflows, idempotency))
    .route('/', catalogRoutes(deps.phoneNumbers));

  const app = new Hono<ApiEnv>();
  // A client's X-Request-Id is kept only when it is 1-128 of [A-Za-z0-9_=-] (else one is made up),
  // so what reaches logs and the echoed header is always short and plain.
  app.use(requestId({ limitLength: 128 }));
  app.use(async function apiHeaders(c, next) {
    await next();
    c.header('X-API-Version', API_VERSION);
    c.header('RateLimit-Policy', RATE_LIMIT_POLICY);
  });
  // The console's origin only; unset (the local stack serves the console same-origin), no CORS at all.
  // Before the 405 check and auth: a preflight carries no key and uses OPTIONS.
  if (deps.consoleOrigin) app.use(`${API_PREFIX}/*`, consoleCors(deps.consoleOrigin));
  // A known path with another method is a 405 listing the path's methods (HEAD wherever GET is); an
  // unknown path stays a 404. Auth runs first, so without a key either is a 401.
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        c.json(errorBody('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(', ')}.`), 405, {
          Allow: methods.join(', '),
        }),
    }),
  );
  app.route(API_PREFIX, api);
  app.notFound((c) => c.json(errorBody('not_found', `No route for ${c.req.method} ${c.req.path}.`), 404));
  app.onError((error, c) => {
    c.header('X-API-Version', API_VERSION);
    c.header('RateLimit-Policy', RATE_LIMIT_POLICY);
    if (error instanceof ValidationError)
      return c.json({ detail: error.items.map((item) => ('input' in item ? { ...item, input: boundedInput(item.input) } : item)) }, 422);
    if (error instanceof RateLimitedError || error instanceof AuthThrottledError) c.header('Retry-After', String(error.retryAfterSeconds));
    if (error instanceof UnauthorizedError)
      c.header('WWW-Authenticate', c.req.header('authorization') ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"');
    if (error instanceof AppError) return c.json({ code: error.code, detail: error.message }, error.status as 400);
    const id = c.get('requestId');
    deps.log.error(`unhandled error in ${c.req.method} ${c.req.path} (request ${id})`, { error, request_id: id });
    return c.json(errorBody('internal', `Internal error; quote request id ${id} when reporting it.`), 500);
  });
  return app;
}
