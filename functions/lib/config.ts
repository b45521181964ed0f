import * as v from 'valibot';

const flag = (fallback: 'true' | 'false') =>
  v.pipe(
    v.optional(v.picklist(['true', 'false']), fallback),
    v.transform((value) => value === 'true'),
  );

/** The API's environment, read once per cold start. */
export const ApiConfigSchema = v.object({
  TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  DYNAMODB_ENDPOINT: v.optional(v.string()),
  OUTBOUND_QUEUE_URL: v.pipe(v.string(), v.minLength(1)),
  SQS_ENDPOINT: v.optional(v.string()),
  KMS_KEY_ID: v.optional(v.string()),
  LOCAL_SECRET_KEY: v.optional(v.string()),
  /** The secret list cursors are signed with (Secrets Manager, AWS); locally it is derived from LOCAL_SECRET_KEY. */
  CURSOR_SECRET_ARN: v.optional(v.string()),
  /** Off by default: only the local stack allows webhook/custom-LLM URLs on loopback or private networks. */
  ALLOW_PRIVATE_URLS: flag('false'),
  REQUIRE_HTTPS_URLS: flag('true'),
  /** The recordings bucket: GET /calls/{id} presigns links into it; unset, every recording_url is null. */
  RECORDINGS_BUCKET: v.optional(v.string()),
  /** fauxqs locally; unset on AWS. */
  S3_ENDPOINT: v.optional(v.string()),
  /** The knowledge ingestion queue; unset (tests, tools): documents are ingested in this process, after the response. */
  KNOWLEDGE_QUEUE_URL: v.optional(v.string()),
  /**
   * Search embeddings on AWS: the knowledge function, invoked (the API reads no provider secret).
   * Else the platform OpenAI key: the Secrets Manager secret (JSON {"api_key"}), or the key itself (local).
   */
  KNOWLEDGE_FUNCTION_NAME: v.optional(v.string()),
  OPENAI_SECRET_ARN: v.optional(v.string()),
  OPENAI_API_KEY: v.optional(v.string()),
  /** The sandbox OpenAI locally; unset on AWS. */
  OPENAI_BASE_URL: v.optional(v.string()),
  /**
   * The call engine's web-call WebSocket, returned by POST /calls/web as `url` (`wss://…/web/calls`;
   * locally `ws://127.0.0.1:<media port>/web/calls`). Unset: POST /calls/web answers 503.
   */
  WEB_CALL_URL: v.optional(v.pipe(v.string(), v.regex(/^wss?:\/\/[^\s]+$/, 'WEB_CALL_URL must be a ws:// or wss:// URL'))),
  /**
   * The console's origin (`https://console.example.com`): the one origin CORS answers on /api/v1.
   * Unset: no CORS headers at all (the local stack serves the console from the API's own origin).
   */
  CONSOLE_ORIGIN: v.optional(
    v.pipe(v.string(), v.regex(/^https?:\/\/[^/\s?#]+$/, 'CONSOLE_ORIGIN must be an origin: scheme://host[:port]')),
  ),
});

export type ApiConfig = v.InferOutput<typeof ApiConfigSchema>;
