/**
 * The single table: its definition (shared by infra, the local stack and tests) and every key
 * format. This is the ONLY place key formats live. Every item of a business has `BIZ#<id>` at the
 * start of its partition key, so no query can cross tenants. The global item families are
 * documented below: the API-key hash lookup (the tenant is what it yields), the phone-number
 * lookup for inbound calls (the carrier tells us the number, not the business), and the calendar
 * feed's token lookup and rate-limit logs (the feed carries no key).
 */

/** GSI names; dependency-free so `infra/` may import them. */
export const GSI1 = 'gsi1';
export const GSI2 = 'gsi2';
/** The sparse index of open calls (see `keys.openCall`). */
export const GSI3 = 'gsi3';

/** The TTL attribute (epoch seconds); DynamoDB deletes expired items "typically within 48 h". */
export const TTL_ATTRIBUTE = 'expires_at';

/** Table shape, declared once: infra/ and the local stack build the table from this. */
export const TABLE_DEFINITION = {
  partitionKey: 'pk',
  sortKey: 'sk',
  attributes: ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'],
  globalIndexes: [
    { name: GSI1, partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    { name: GSI2, partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'ALL' },
    // Keys only: a write of an attribute the index does not project (the heartbeat every 30 s) is
    // no index write; only a status change or the removal is.
    { name: GSI3, partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'KEYS_ONLY' },
  ],
  ttlAttribute: TTL_ATTRIBUTE,
} as const;

/** Ids are zero-padded so lexical order is numeric order and `begins_with` cannot match a longer id. */
export function padId(id: number): string {
  return id.toString().padStart(12, '0');
}

const biz = (businessId: number) => `BIZ#${padId(businessId)}`;

/** The open-calls index is spread over this many partitions (by business id), read with one query each. */
export const OPEN_CALL_SHARDS = 8;

const openCallShard = (businessId: number) => `OPEN#${businessId % OPEN_CALL_SHARDS}`;

/** The GSI1 partition listing every business. */
const BUSINESSES = 'SYS#BUSINESSES';

/** Key builders, one per access pattern. */
export const keys = {
  /** The global id counter (blocks of ids are allocated from it, never one id per write). */
  idCounter: () => ({ pk: 'SYS#IDS', sk: 'COUNTER' }),

  business: (businessId: number) => ({ pk: biz(businessId), sk: 'BUSINESS' }),
  /** All businesses, for ops listing; GSI1. */
  businessIndex: (businessId: number) => ({ gsi1pk: BUSINESSES, gsi1sk: padId(businessId) }),
  businessIndexPartition: () => BUSINESSES,
  /**
   * The business's entry in that listing: a write-once item of its own. The business item itself
   * carries no index keys, because it is rewritten by every call's slot and minutes transactions,
   * and each rewrite of an indexed item is also a write to the one listing partition.
   */
  businessDirectory: (businessId: number) => ({ pk: biz(businessId), sk: 'DIRECTORY' }),

  /** Global lookup: SHA-256 of an API key → its business. Never holds the key itself. */
  apiKeyLookup: (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** The business's own record of a key (for listing and revoking by prefix). */
  apiKey: (businessId: number, keyHash: string) => ({ pk: biz(businessId), sk: `KEY#${keyHash}` }),
  apiKeyPrefix: () => 'KEY#',

  assistant: (businessId: number, assistantId: number) => ({ pk: biz(businessId), sk: `ASSISTANT#${padId(assistantId)}` }),
  assistantPrefix: () => 'ASSISTANT#',
  /** How many assistants a business has (`assistants`), kept in their own transactions (docs/decisions.md "Quotas"). */
  assistantCount: (businessId: number) => ({ pk: biz(businessId), sk: 'ASSISTANTCOUNT' }),
  /** Ops' quota overrides of a business (shared/domain/quota.ts); absent: every default. */
  quotas: (businessId: number) => ({ pk: biz(businessId), sk: 'QUOTAS' }),
  /**
   * Which assistants name a tool, knowledge base or workflow in their config (`assistants`, a number
   * set): written with the resource and with every assistant write that changes its references, so
   * the resource's delete checks this one item instead of reading every assistant.
   */
  references: (businessId: number, kind: 'tool' | 'knowledge_base' | 'workflow', id: number) => ({
    pk: biz(businessId),
    sk: `REFS#${kind.toUpperCase()}#${padId(id)}`,
  }),

  phoneNumber: (businessId: number, numberId: number) => ({ pk: biz(businessId), sk: `PHONE#${padId(numberId)}` }),
  phoneNumberPrefix: () => 'PHONE#',
  /** How many phone numbers a business has (`phone_numbers`), kept in their own transactions. */
  phoneNumberCount: (businessId: number) => ({ pk: biz(businessId), sk: 'PHONECOUNT' }),
  /** Global lookup: an E.164 number → the business and number record (inbound calls). */
  numberLookup: (e164: string) => ({ pk: `NUMBER#${e164}`, sk: 'NUMBER' }),

  tool: (businessId: number, toolId: number) => ({ pk: biz(businessId), sk: `TOOL#${padId(toolId)}` }),
  toolPrefix: () => 'TOOL#',
  /** A tool name taken in a business (names are unique per business; written with the tool). */
  toolName: (businessId: number, name: string) => ({ pk: biz(businessId), sk: `TOOLNAME#${name}` }),
  /** How many tools a business has (`tools`), kept in the tools' own transactions so the cap holds under concurrent creates. */
  toolCount: (businessId: number) => ({ pk: biz(businessId), sk: 'TOOLCOUNT' }),

  workflow: (businessId: number, workflowId: number) => ({ pk: biz(businessId), sk: `WORKFLOW#${padId(workflowId)}` }),
  workflowPrefix: () => 'WORKFLOW#',
  /** How many workflows a business has (`workflows`), kept in their own transactions. */
  workflowCount: (businessId: number) => ({ pk: biz(businessId), sk: 'WORKFLOWCOUNT' }),

  /** The call record (list fields only; the transcript lives in its own item). */
  call: (businessId: number, callId: number) => ({ pk: biz(businessId), sk: `CALL#${padId(callId)}#MAIN` }),
  callDetail: (businessId: number, callId: number) => ({ pk: biz(businessId), sk: `CALL#${padId(callId)}#DETAIL` }),
  /** Every item of one call (main, detail, webhook deliveries): GET /calls/{id} reads them in one query. */
  callItemsPrefix: (callId: number) => `CALL#${padId(callId)}#`,
  /** Every call item of a business (ops listings). */
  allCallItemsPrefix: () => 'CALL#',
  /** A webhook delivery of one call's event: under the call's item prefix, so the call's one query sees it. */
  callDelivery: (businessId: number, callId: number, eventId: string) => ({
    pk: biz(businessId),
    sk: `CALL#${padId(callId)}#DELIVERY#${eventId}`,
  }),
  callDeliveriesPrefix: (callId: number) => `CALL#${padId(callId)}#DELIVERY#`,
  /** An inbound call by the carrier's CallSid: a replayed voice webhook finds its call here instead of making another. */
  inboundCallSid: (businessId: number, carrierCallSid: string) => ({ pk: biz(businessId), sk: `INBOUND#${carrierCallSid}` }),
  /** GSI1: a business's calls, newest first by creation. */
  callByBusiness: (businessId: number, createdAt: string, callId: number) => ({
    gsi1pk: `${biz(businessId)}#CALLS`,
    gsi1sk: `${createdAt}#${padId(callId)}`,
  }),
  callByBusinessPartition: (businessId: number) => `${biz(businessId)}#CALLS`,
  /** GSI2: an assistant's calls, newest first by creation. */
  callByAssistant: (businessId: number, assistantId: number, createdAt: string, callId: number) => ({
    gsi2pk: `${biz(businessId)}#ASSISTANT#${padId(assistantId)}#CALLS`,
    gsi2sk: `${createdAt}#${padId(callId)}`,
  }),
  callByAssistantPartition: (businessId: number, assistantId: number) => `${biz(businessId)}#ASSISTANT#${padId(assistantId)}#CALLS`,
  /**
   * GSI3, sparse: a call is in it from its creation until its ending is complete, under one of
   * {@link OPEN_CALL_SHARDS} partitions, sorted by business, then status. The sweeper reads every
   * open call with one query per shard; one business's calls in one status are one `begins_with`.
   */
  openCall: (businessId: number, status: string, callId: number) => ({
    gsi3pk: openCallShard(businessId),
    gsi3sk: `${biz(businessId)}#${status}#${padId(callId)}`,
  }),
  /** The attributes that put a call in GSI3 (removed when its ending is complete). */
  openCallAttributes: () => ['gsi3pk', 'gsi3sk'] as const,
  openCallShards: () => Array.from({ length: OPEN_CALL_SHARDS }, (_, shard) => `OPEN#${shard}`),
  openCallPartition: (businessId: number) => openCallShard(businessId),
  /** Ends with '#' so `queued` matches no longer status and business 1 never matches business 12. */
  openCallStatusPrefix: (businessId: number, status: string) => `${biz(businessId)}#${status}#`,

  /** Rate-limit log of one API key: its own partition, so one key's traffic never touches another's. */
  rateLimit: (businessId: number, keyId: string) => ({ pk: `${biz(businessId)}#RL#${keyId}`, sk: 'LOG' }),
  /**
   * Global: the public calendar feed's rate-limit log of one subject (`ADDR#<client address>` or
   * `TOKEN#<SHA-256 of the token>`); the feed is read before any business is known.
   */
  feedRateLimit: (subject: string) => ({ pk: `FEEDRL#${subject}`, sk: 'LOG' }),

  /** Idempotency record, scoped to business + method + route + client key. */
  idempotency: (businessId: number, scope: string, key: string) => ({ pk: biz(businessId), sk: `IDEM#${scope}#${key}` }),

  /**
   * A caller's remembered call (advanced.memory): in the business's partition, so no other business
   * can read it; sorted by end time under the number, so "newest first" is one reversed query.
   */
  callerMemory: (businessId: number, e164: string, endedAt: string, callId: number) => ({
    pk: biz(businessId),
    sk: `CALLER#${e164}#${endedAt}#${padId(callId)}`,
  }),
  /** Ends with '#' so +1555 never matches +15551's entries. */
  callerMemoryPrefix: (e164: string) => `CALLER#${e164}#`,

  /** A message a caller left (take_message, notify_team): in the business's partition, by id. */
  message: (businessId: number, messageId: number) => ({ pk: biz(businessId), sk: `MESSAGE#${padId(messageId)}` }),
  /** GSI1: a business's messages, newest first by creation (the `from`/`to` window is a key range). */
  messageByBusiness: (businessId: number, createdAt: string, messageId: number) => ({
    gsi1pk: `${biz(businessId)}#MESSAGES`,
    gsi1sk: `${createdAt}#${padId(messageId)}`,
  }),
  messageByBusinessPartition: (businessId: number) => `${biz(businessId)}#MESSAGES`,
  /** A booking (docs/design.md "Bookings"). */
  booking: (businessId: number, bookingId: number) => ({ pk: biz(businessId), sk: `BOOKING#${padId(bookingId)}` }),
  /** GSI1: a business's bookings by start instant (UTC ISO), so a date range is one `BETWEEN` query. */
  bookingByStart: (businessId: number, startIso: string, bookingId: number) => ({
    gsi1pk: `${biz(businessId)}#BOOKINGS`,
    gsi1sk: `${startIso}#${padId(bookingId)}`,
  }),
  bookingByStartPartition: (businessId: number) => `${biz(businessId)}#BOOKINGS`,
  /** GSI2: a caller's bookings by start (find_appointments), only for bookings with a phone. */
  bookingByPhone: (businessId: number, e164: string, startIso: string, bookingId: number) => ({
    gsi2pk: `${biz(businessId)}#BOOKINGS#PHONE#${e164}`,
    gsi2sk: `${startIso}#${padId(bookingId)}`,
  }),
  bookingByPhonePartition: (businessId: number, e164: string) => `${biz(businessId)}#BOOKINGS#PHONE#${e164}`,
  /**
   * One 5-minute slot lock (UTC instant of its start): a booking holds every lock of its start to
   * its end plus buffer, each put only if absent, so two bookings can never hold the same time.
   */
  slotLock: (businessId: number, instantIso: string) => ({ pk: biz(businessId), sk: `SLOTLOCK#${instantIso}` }),

  /** A knowledge base (docs/design.md "Knowledge bases"); its `version` grows with every document ready or deleted. */
  knowledgeBase: (businessId: number, kbId: number) => ({ pk: biz(businessId), sk: `KB#${padId(kbId)}` }),
  knowledgeBasePrefix: () => 'KB#',
  /**
   * How many knowledge bases a business has (`bases`), kept in the bases' own transactions so the
   * cap holds under concurrent creates. A base's documents are counted on the base item itself.
   */
  knowledgeBaseCount: (businessId: number) => ({ pk: biz(businessId), sk: 'KBCOUNT' }),
  /** A document of a knowledge base (`KBDOC#`, so no `KB#` query ever sees it). */
  knowledgeDocument: (businessId: number, kbId: number, docId: number) => ({
    pk: biz(businessId),
    sk: `KBDOC#${padId(kbId)}#${padId(docId)}`,
  }),
  knowledgeDocumentPrefix: (kbId: number) => `KBDOC#${padId(kbId)}#`,
  /** A text document's source, kept until it is ingested. */
  knowledgeSource: (businessId: number, kbId: number, docId: number) => ({
    pk: biz(businessId),
    sk: `KBSRC#${padId(kbId)}#${padId(docId)}`,
  }),
  knowledgeSourcePrefix: (kbId: number) => `KBSRC#${padId(kbId)}#`,
  /** One page of a document's chunks and their vectors (up to 25 chunks per item). */
  knowledgeChunks: (businessId: number, kbId: number, docId: number, page: number) => ({
    pk: biz(businessId),
    sk: `KBCHUNK#${padId(kbId)}#${padId(docId)}#${String(page).padStart(4, '0')}`,
  }),
  knowledgeChunksPrefix: (kbId: number) => `KBCHUNK#${padId(kbId)}#`,
  knowledgeDocumentChunksPrefix: (kbId: number, docId: number) => `KBCHUNK#${padId(kbId)}#${padId(docId)}#`,

  /** Global lookup: SHA-256 of a calendar feed token → its business (the feed URL carries no API key). */
  calendarFeedLookup: (tokenHash: string) => ({ pk: `CALFEED#${tokenHash}`, sk: 'CALFEED' }),
} as const;

/** A DynamoDB key as a list page ends on it (`LastEvaluatedKey`): the table's key plus the index's, all strings. */
export type TableKey = Record<string, string>;

/** The attributes of the key a query of the table (or of one index) pages by. */
export function pageKeyAttributes(index?: typeof GSI1 | typeof GSI2): readonly string[] {
  if (index === undefined) return ['pk', 'sk'];
  return ['pk', 'sk', `${index}pk`, `${index}sk`];
}

/**
 * Whether every partition-key value of `key` (`pk`, `gsi1pk`, …) lies in this business's
 * partitions and the key holds nothing else than key attributes: a key a client sends back (a
 * list cursor) must never start a read in another business's data.
 */
export function isBusinessKey(businessId: number, key: Record<string, unknown>): boolean {
  const own = biz(businessId);
  const names = Object.keys(key);
  if (!names.includes('pk') || !names.includes('sk')) return false;
  return names.every((name) => {
    const value = key[name];
    if (!/^(?:gsi[12])?[ps]k$/.test(name) || typeof value !== 'string') return false;
    return !name.endsWith('pk') || value === own || value.startsWith(`${own}#`);
  });
}

/** Which of a call's items a sort key from the `callItemsPrefix` query names. */
export function callItemKind(sk: unknown): 'main' | 'detail' | 'delivery' | undefined {
  if (typeof sk !== 'string' || !sk.startsWith('CALL#')) return undefined;
  if (sk.endsWith('#MAIN')) return 'main';
  if (sk.endsWith('#DETAIL')) return 'detail';
  return sk.includes('#DELIVERY#') ? 'delivery' : undefined;
}
