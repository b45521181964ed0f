import { SQSClient } from '@aws-sdk/client-sqs';
import { KnowledgeRepository } from '../../shared/db/knowledge-repository';
import type { Embedder } from '../../shared/knowledge/embeddings';
import { LazyEmbedder } from '../../shared/llm/embeddings-client';
import { LambdaEmbedder } from '../../shared/llm/lambda-embedder';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { KnowledgeSearcher } from '../../shared/knowledge/index-cache';
import { ingestDocument, type IngestDeps } from '../../shared/knowledge/ingest';
import { InProcessIngestQueue, SqsIngestQueue, type IngestQueue } from '../../shared/queue/knowledge-ingest';
import { KnowledgeService } from '../../shared/services/knowledge-service';
import { AssistantRepository } from '../../shared/db/assistant-repository';
import { BusinessRepository } from '../../shared/db/business-repository';
import { CallRepository } from '../../shared/db/call-repository';
import { CallerMemoryRepository } from '../../shared/db/caller-memory-repository';
import { CatalogRepository } from '../../shared/db/catalog-repository';
import { MessageRepository } from '../../shared/db/message-repository';
import { createDb, type Db } from '../../shared/db/client';
import { IdempotencyRepository } from '../../shared/db/idempotency-repository';
import { IdAllocator } from '../../shared/db/ids';
import { RateLimiter } from '../../shared/db/rate-limiter';
import { SqsOutboundCallQueue, type OutboundCallQueue } from '../../shared/queue/outbound-calls';
import { KmsSecretBox, LocalSecretBox, type SecretBox } from '../../shared/security/secret-box';
import { PageCursors } from '../../shared/db/page-cursor';
import { AssistantService } from '../../shared/services/assistant-service';
import { AdminService } from '../../shared/services/admin-service';
import { ToolService } from '../../shared/services/tool-service';
import { QuotaRepository } from '../../shared/db/quotas';
import { ToolRepository } from '../../shared/db/tool-repository';
import { WorkflowRepository } from '../../shared/db/workflow-repository';
import { WorkflowService } from '../../shared/services/workflow-service';
import { DeliveryRepository } from '../../shared/db/delivery-repository';
import type { KeyEnvironment } from '../../shared/auth/api-key';
import { CallService, type RecordingLinks } from '../../shared/services/call-service';
import { MessageService } from '../../shared/services/message-service';
import { PhoneNumberService } from '../../shared/services/phone-number-service';
import { BookingRepository } from '../../shared/db/booking-repository';
import { CalendarFeedRepository } from '../../shared/db/calendar-feed-repository';
import { BookingService } from '../../shared/services/booking-service';
import { BusinessService } from '../../shared/services/business-service';
import { WebCallService } from '../../shared/services/web-call-service';
import { LiveCallService } from '../../shared/services/live-call-service';
import type { UrlPolicy } from '../../shared/security/ssrf';
import type { ApiDeps } from '../api/app';
import { FEED_RATE_LIMIT } from '../../shared/domain/rate-limits';
import type { ApiConfig } from './config';
import { kmsClient } from './kms';
import { cursorSecret, openAiKeySource } from './secrets';
import { S3RecordingLinks } from './recording-links';
import { createLogger, type Logger } from '../../shared/log';

/** The pieces shared by the API and the other entry points of the same process. */
export interface CoreDeps {
  db: Db;
  businesses: BusinessRepository;
  assistantRepo: AssistantRepository;
  catalog: CatalogRepository;
  callRepo: CallRepository;
  /** advanced.memory: written by the analysis, recalled when the caller rings again. */
  callerMemory: CallerMemoryRepository;
  /** Messages callers left (take_message, notify_team). */
  messages: MessageRepository;
  ids: IdAllocator;
  secretBox: SecretBox;
  /** Signs and opens every list's `cursor` (one secret for the whole API, so any instance opens any cursor). */
  cursors: PageCursors;
  urlPolicy: UrlPolicy;
  recordingLinks?: RecordingLinks;
  /** Knowledge bases: storage, the embeddings client, the shared index cache and the ingestion queue. */
  knowledge: KnowledgeDeps;
}

/** The knowledge-base pieces of a process (docs/design.md "Knowledge bases"). */
export interface KnowledgeDeps {
  repo: KnowledgeRepository;
  embedder: Embedder;
  searcher: KnowledgeSearcher;
  queue: IngestQueue;
}

/** Builds the clients and repositories once (composition root). */
export function createCoreDeps(config: ApiConfig): CoreDeps {
  const db = createDb({ tableName: config.TABLE_NAME, region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT });
  let secretBox: SecretBox;
  if (config.KMS_KEY_ID) secretBox = new KmsSecretBox(kmsClient(config.KMS_KEY_ID, config.AWS_REGION));
  else if (config.LOCAL_SECRET_KEY) secretBox = new LocalSecretBox(config.LOCAL_SECRET_KEY);
  else throw new Error('Set KMS_KEY_ID (AWS) or LOCAL_SECRET_KEY (local stack) to seal secrets.');
  const urlPolicy = { allowPrivate: config.ALLOW_PRIVATE_URLS, requireHttps: config.REQUIRE_HTTPS_URLS };
  return {
    knowledge: createKnowledgeDeps(config, db, urlPolicy),
    db,
    businesses: new BusinessRepository(db),
    assistantRepo: new AssistantRepository(db),
    catalog: new CatalogRepository(db),
    callRepo: new CallRepository(db),
    callerMemory: new CallerMemoryRepository(db),
    messages: new MessageRepository(db),
    ids: new IdAllocator(db),
    secretBox,
    cursors: new PageCursors(cursorSecret(config)),
    urlPolicy,
    ...(config.RECORDINGS_BUCKET
      ? {
          recordingLinks: new S3RecordingLinks({
            bucket: config.RECORDINGS_BUCKET,
            region: config.AWS_REGION,
            endpoint: config.S3_ENDPOINT,
          }),
        }
      : {}),
  };
}

/** The API's own settings from its config: web calls and the console's origin. */
export interface ApiSettings {
  /** Where browsers open web calls (`WEB_CALL_URL`); unset, POST /calls/web answers 503. */
  webCallUrl?: string;
  /** The one origin CORS allows (`CONSOLE_ORIGIN`); unset, no CORS headers. */
  consoleOrigin?: string;
}

/** {@link ApiSettings} from the API's config. */
export function apiSettings(config: ApiConfig): ApiSettings {
  return {
    ...(config.WEB_CALL_URL && { webCallUrl: config.WEB_CALL_URL }),
    ...(config.CONSOLE_ORIGIN && { consoleOrigin: config.CONSOLE_ORIGIN }),
  };
}

/** Everything `createApp` needs, from the core pieces plus an outbound queue. */
export function createApiDeps(
  core: CoreDeps,
  queue: OutboundCallQueue,
  log: Logger = functionLogger('api'),
  now: () => Date = () => new Date(),
  settings: ApiSettings = {},
): ApiDeps {
  const bookings = createBookingService(core, now);
  const idempotency = new IdempotencyRepository(core.db);
  return {
    bookings,
    business: new BusinessService({
      businesses: core.businesses,
      calendarFeeds: new CalendarFeedRepository(core.db),
      catalog: core.catalog,
      bookings,
      secretBox: core.secretBox,
      now,
    }),
    assistants: new AssistantService({
      assistants: core.assistantRepo,
      businesses: core.businesses,
      catalog: core.catalog,
      ids: core.ids,
      secretBox: core.secretBox,
      cursors: core.cursors,
      urlPolicy: core.urlPolicy,
      workflows: new WorkflowRepository(core.db),
      now,
    }),
    calls: new CallService({
      assistants: core.assistantRepo,
      businesses: core.businesses,
      catalog: core.catalog,
      calls: core.callRepo,
      idempotency,
      ids: core.ids,
      cursors: core.cursors,
      queue,
      now,
      log,
      ...(core.recordingLinks ? { recordingLinks: core.recordingLinks } : {}),
    }),
    webCalls: new WebCallService({
      assistants: core.assistantRepo,
      businesses: core.businesses,
      calls: core.callRepo,
      idempotency,
      ids: core.ids,
      now,
      ...(settings.webCallUrl && { webCallUrl: settings.webCallUrl }),
    }),
    liveCalls: new LiveCallService({ calls: core.callRepo, now, ...(settings.webCallUrl && { webCallUrl: settings.webCallUrl }) }),
    ...(settings.consoleOrigin && { consoleOrigin: settings.consoleOrigin }),
    messages: new MessageService({ messages: core.messages, ids: core.ids, now, cursors: core.cursors }),
    phoneNumbers: new PhoneNumberService({ catalog: core.catalog, cursors: core.cursors }),
    tools: createToolService(core, now),
    knowledge: createKnowledgeService(core, now),
    workflows: createWorkflowService(core, now),
    idempotency,
    findApiKey: (hash) => core.businesses.findApiKey(hash),
    rateLimiter: new RateLimiter(core.db, { log }),
    feedRateLimiter: new RateLimiter(core.db, { limit: FEED_RATE_LIMIT, log }),
    now: Date.now,
    log,
  };
}

/** The booking use cases (the API's routes and the call engine's booking tools share them). */
export function createBookingService(core: CoreDeps, now: () => Date = () => new Date()): BookingService {
  return new BookingService({
    businesses: core.businesses,
    bookings: new BookingRepository(core.db),
    ids: core.ids,
    now,
    cursors: core.cursors,
  });
}

/** The custom-tool use cases (the API's /tools routes and the ops `add-tool` share them). */
export function createToolService(core: CoreDeps, now: () => Date = () => new Date()): ToolService {
  return new ToolService({
    tools: new ToolRepository(core.db),
    ids: core.ids,
    urlPolicy: core.urlPolicy,
    now,
    cursors: core.cursors,
  });
}

/**
 * The knowledge-base pieces from config: the embeddings client (the platform key, read on first
 * use), the shared index cache, and the ingestion queue (SQS when KNOWLEDGE_QUEUE_URL is set, else
 * the same handler run in this process after the response).
 */
export function createKnowledgeDeps(config: ApiConfig, db: Db, urlPolicy: UrlPolicy): KnowledgeDeps {
  const repo = new KnowledgeRepository(db);
  const embedder = config.KNOWLEDGE_FUNCTION_NAME
    ? new LambdaEmbedder(new LambdaClient({ region: config.AWS_REGION }), config.KNOWLEDGE_FUNCTION_NAME)
    : new LazyEmbedder(openAiKeySource(config), config.OPENAI_BASE_URL);
  const ingest = knowledgeIngestDeps(repo, embedder, urlPolicy);
  return {
    repo,
    embedder,
    searcher: new KnowledgeSearcher(repo, embedder),
    queue: config.KNOWLEDGE_QUEUE_URL
      ? new SqsIngestQueue(sqsClient(config), config.KNOWLEDGE_QUEUE_URL)
      : new InProcessIngestQueue((body) => ingestDocument(body, ingest), ingest.log),
  };
}

/** What the ingestion handler needs (the queue's function, the local poller and the in-process queue). */
export function knowledgeIngestDeps(repo: KnowledgeRepository, embedder: Embedder, urlPolicy: UrlPolicy): IngestDeps {
  return { knowledge: repo, embedder, urlPolicy, now: () => new Date(), log: functionLogger('knowledge-ingest') };
}

/** The knowledge-base use cases (the API's /knowledge-bases routes). */
export function createKnowledgeService(core: CoreDeps, now: () => Date = () => new Date()): KnowledgeService {
  return new KnowledgeService({
    knowledge: core.knowledge.repo,
    ids: core.ids,
    urlPolicy: core.urlPolicy,
    queue: core.knowledge.queue,
    searcher: core.knowledge.searcher,
    now,
    cursors: core.cursors,
  });
}

/** The workflow use cases (the API's /workflows routes). */
export function createWorkflowService(core: CoreDeps, now: () => Date = () => new Date()): WorkflowService {
  return new WorkflowService({
    workflows: new WorkflowRepository(core.db),
    tools: new ToolRepository(core.db),
    ids: core.ids,
    now,
    cursors: core.cursors,
  });
}

/** An SQS client from config (fauxqs locally). */
export function sqsClient(config: Pick<ApiConfig, 'AWS_REGION' | 'SQS_ENDPOINT'>): SQSClient {
  return new SQSClient({
    region: config.AWS_REGION,
    ...(config.SQS_ENDPOINT ? { endpoint: config.SQS_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
}

/** The SQS outbound queue from config (fauxqs locally). */
export function createOutboundQueue(config: ApiConfig): OutboundCallQueue {
  return new SqsOutboundCallQueue(sqsClient(config), config.OUTBOUND_QUEUE_URL);
}

/** A function's logger: its `service` from POWERTOOLS_SERVICE_NAME (set by infra), else `service`; LOG_LEVEL honoured. */
export function functionLogger(service: string): Logger {
  return createLogger({ service, env: process.env });
}

/** The ops use cases over the same core pieces (admin command line, dev seeding, tests, benchmarks). */
export function createAdminService(core: CoreDeps, keyEnvironment: KeyEnvironment): AdminService {
  return new AdminService({
    businesses: core.businesses,
    assistants: core.assistantRepo,
    catalog: core.catalog,
    ids: core.ids,
    secretBox: core.secretBox,
    urlPolicy: core.urlPolicy,
    keyEnvironment,
    now: () => new Date(),
    tools: createToolService(core),
    deliveries: new DeliveryRepository(core.db),
    quotas: new QuotaRepository(core.db),
  });
}
