import { ApiConfigSchema, type ApiConfig } from '../../functions/lib/config';
import { readConfig } from '../../shared/config';
import type { LocalStackInfo } from './infra';

/**
 * The API configuration for the local stack. Private URLs (localhost webhook receivers, a local
 * OpenAI-compatible server) are allowed here on purpose, and plain http with them; production
 * refuses both by default.
 */
export function localApiConfig(info: LocalStackInfo): ApiConfig {
  return readConfig(ApiConfigSchema, {
    TABLE_NAME: info.tableName,
    AWS_REGION: info.region,
    DYNAMODB_ENDPOINT: info.dynamoEndpoint,
    OUTBOUND_QUEUE_URL: info.outboundQueueUrl,
    SQS_ENDPOINT: info.sqsEndpoint,
    LOCAL_SECRET_KEY: info.localSecretKey,
    RECORDINGS_BUCKET: info.recordingsBucket,
    // The API only presigns recording links with it: against the gate that checks them as S3 does.
    S3_ENDPOINT: info.recordingLinksEndpoint ?? info.sqsEndpoint,
    ALLOW_PRIVATE_URLS: 'true',
    REQUIRE_HTTPS_URLS: 'false',
  });
}
