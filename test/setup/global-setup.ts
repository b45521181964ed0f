import type { TestProject } from 'vitest/node';
import { createDb } from '../../shared/db/client';
import { ensureTable } from '../../shared/db/create-table';
import { startDynamoDbLocal } from '../../scripts/local/stand-ins/dynamodb-local';
import { startFauxqsServer } from '../../scripts/local/stand-ins/fauxqs';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    sqsEndpoint: string;
    tableName: string;
  }
}

/** Starts the real stand-ins once for the integration project and shares their endpoints. */
export default async function setup(project: TestProject) {
  const [dynamo, fauxqs] = await Promise.all([startDynamoDbLocal({ startTimeoutMs: 120_000 }), startFauxqsServer()]);
  const tableName = 'voice-agent-test';
  await ensureTable(createDb({ tableName, region: 'local', endpoint: dynamo.endpoint }));
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('sqsEndpoint', fauxqs.endpoint);
  project.provide('tableName', tableName);
  return async () => {
    await Promise.all([dynamo.stop(), fauxqs.stop()]);
  };
}
