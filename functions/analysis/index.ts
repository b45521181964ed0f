import { randomUUID } from 'node:crypto';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as v from 'valibot';
import { readConfig } from '../../shared/config';
import { AssistantRepository } from '../../shared/db/assistant-repository';
import { BusinessRepository } from '../../shared/db/business-repository';
import { CallRepository } from '../../shared/db/call-repository';
import { CallerMemoryRepository } from '../../shared/db/caller-memory-repository';
import { createDb } from '../../shared/db/client';
import { CallEventDetailSchema, EVENT_TYPES } from '../../shared/events/catalog';
import { EventBridgeBus } from '../../shared/events/event-bus';
import { OpenAiAnalysisClient } from '../../shared/llm/analysis-client';
import { functionLogger } from '../lib/deps';
import { analyzeCall } from './analyze-call';

const config = readConfig(
  v.object({
    TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
    EVENT_BUS_NAME: v.pipe(v.string(), v.minLength(1)),
    /** Production: the Secrets Manager secret (JSON {"api_key"}); OPENAI_API_KEY wins when set (tests, local). */
    OPENAI_SECRET_ARN: v.optional(v.string()),
    OPENAI_API_KEY: v.optional(v.string()),
    OPENAI_BASE_URL: v.optional(v.string()),
    ANALYSIS_MODEL: v.optional(v.string()),
    AWS_REGION: v.optional(v.string(), 'us-east-1'),
  }),
  process.env,
);
const db = createDb({ tableName: config.TABLE_NAME, region: config.AWS_REGION });
/** The OpenAI key, read once per cold start (never logged). */
async function openAiKey(): Promise<string> {
  if (config.OPENAI_API_KEY) return config.OPENAI_API_KEY;
  if (!config.OPENAI_SECRET_ARN) throw new Error('Set OPENAI_SECRET_ARN or OPENAI_API_KEY.');
  const secret = await new SecretsManagerClient({ region: config.AWS_REGION }).send(
    new GetSecretValueCommand({ SecretId: config.OPENAI_SECRET_ARN }),
  );
  const key = (JSON.parse(secret.SecretString ?? '{}') as { api_key?: string }).api_key;
  if (!key) throw new Error('The OpenAI secret has no api_key.');
  return key;
}

let model: Promise<OpenAiAnalysisClient> | undefined;
const deps = {
  calls: new CallRepository(db),
  assistants: new AssistantRepository(db),
  businesses: new BusinessRepository(db),
  memory: new CallerMemoryRepository(db),
  events: new EventBridgeBus(new EventBridgeClient({ region: config.AWS_REGION }), config.EVENT_BUS_NAME),
  now: () => new Date(),
  newEventId: () => `evt_${randomUUID()}`,
  log: functionLogger('analysis'),
};

const EventSchema = v.looseObject({ 'detail-type': v.picklist(EVENT_TYPES), detail: CallEventDetailSchema });

/** Lambda entry: EventBridge `call.ended` → analysis → `call.completed`. A throw lets Lambda retry. */
export const handler = async (event: unknown) => {
  const parsed = v.parse(EventSchema, event);
  model ??= openAiKey().then(
    (apiKey) => new OpenAiAnalysisClient({ apiKey, baseURL: config.OPENAI_BASE_URL, model: config.ANALYSIS_MODEL }),
  );
  model.catch(() => (model = undefined));
  return analyzeCall({ type: parsed['detail-type'], detail: parsed.detail }, { ...deps, model: await model });
};
