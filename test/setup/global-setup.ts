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

interface StandIns {
  dynamoEndpoint: string;
  sqsEndpoint: string;
  tableName: string;
  stop(): Promise<void>;
}

async function startStandIns(): Promise<StandIns> {
  const [dynamo, fauxqs] = await Promise.all([startDynamoDbLocal({ startTimeoutMs: 120_000, lean: true }), startFauxqsServer()]);
  const tableName = 'voice-agent-test';
  await ensureTable(createDb({ tableName, region: 'local', endpoint: dynamo.endpoint }));
  return {
    dynamoEndpoint: dynamo.endpoint,
    sqsEndpoint: fauxqs.endpoint,
    tableName,
    stop: async () => {
      await Promise.all([dynamo.stop(), fauxqs.stop()]);
    },
  };
}

/**
 * One set of stand-ins for the whole run, however many projects list this setup: Vitest runs each
 * project's global setup in turn, in this one process, so a second JVM would start only after the
 * first had answered (5–30 s on the 2-core VM, more under load) and then compete with it for CPU.
 * The last project to tear down stops them.
 */
const shared = globalThis as typeof globalThis & { __standIns?: { started: Promise<StandIns>; users: number } };

/** Starts the real stand-ins (once per run) and gives the project their endpoints. */
export default async function setup(project: TestProject) {
  shared.__standIns ??= { started: startStandIns(), users: 0 };
  const state = shared.__standIns;
  state.users++;
  const standIns = await state.started;
  project.provide('dynamoEndpoint', standIns.dynamoEndpoint);
  project.provide('sqsEndpoint', standIns.sqsEndpoint);
  project.provide('tableName', standIns.tableName);
  return async () => {
    if (--state.users > 0) return;
    delete shared.__standIns;
    await standIns.stop();
  };
}
