import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SQSClient } from '@aws-sdk/client-sqs';
import { dialOutbound } from '../../media-service/src/calls/dial-outbound';
import { OutboundConsumer } from '../../media-service/src/calls/outbound-consumer';
import type { Telephony } from '../../media-service/src/ports/telephony';
import { AssistantRepository } from '../../shared/db/assistant-repository';
import { CallRepository } from '../../shared/db/call-repository';
import { CallSlotsRepository } from '../../shared/db/call-slots-repository';
import { createDb } from '../../shared/db/client';
import { MinutesRepository } from '../../shared/db/minutes-repository';
import { silentLogger } from '../../shared/log';
import { SqsOutboundJobs } from '../../shared/queue/outbound-calls';
import { CallLifecycle } from '../../shared/services/call-lifecycle';

/**
 * One call-engine process's outbound side for the cap benchmark: the real `OutboundConsumer`
 * (engine defaults: 10 jobs a receive, waits at the cap 1–2 s doubling to 30–60 s) and the real
 * `dialOutbound` with the concurrency cap (`CallSlotsRepository`: one transaction to admit, one
 * to give back), against DynamoDB Local and the fauxqs queue. The carrier is a stand-in that
 * answers each call at once; the callee hangs up after `holdMs` (±50 %), and the call ends
 * through the real `CallLifecycle`. What it reports: when each call was placed, the admission
 * statistics (transaction conflicts retried, refusals by the plain read), transient failures
 * retried, deferrals, and each ending that still threw (the step, the error, where).
 */

/** Where a dialler process works. */
export interface DiallerSettings {
  tableName: string;
  dynamoEndpoint: string;
  sqsEndpoint: string;
  queueUrl: string;
  holdMs: number;
  owner: string;
}

/** What a dialler process did. */
export interface DiallerReport {
  placedAt: number[];
  conflicts: number;
  refusedByRead: number;
  deferred: number;
  jobErrors: number;
  endErrors: number;
  /** Why each ending (or answer) threw: the step, the error's name and message, where it was thrown. */
  endFailures: string[];
  /** Requests retried after a transient failure (throttled, a server error): the lifecycle's and admission's. */
  transientRetries: number;
}

/** Starts a dialler process; `stop()` ends it and resolves with its report. */
export function startDialler(settings: DiallerSettings): { stop(): Promise<DiallerReport> } {
  const child = fork(fileURLToPath(import.meta.url), ['child', JSON.stringify(settings)], { execArgv: ['--import', 'tsx'] });
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('message', (report) => {
          child.kill();
          resolve(report as DiallerReport);
        });
        child.send('stop');
      }),
  };
}

function runDialler(settings: DiallerSettings): () => DiallerReport {
  const db = createDb({ tableName: settings.tableName, region: 'us-east-1', endpoint: settings.dynamoEndpoint });
  const calls = new CallRepository(db);
  const assistants = new AssistantRepository(db);
  const minutes = new MinutesRepository(db);
  const slots = new CallSlotsRepository(db);
  const now = () => new Date();
  const lifecycle = new CallLifecycle({
    calls,
    assistants,
    minutes,
    slots,
    events: { publish: async () => undefined },
    now,
    newEventId: () => `evt_${Math.random()}`,
  });
  const report: DiallerReport = {
    placedAt: [],
    conflicts: 0,
    refusedByRead: 0,
    deferred: 0,
    jobErrors: 0,
    endErrors: 0,
    endFailures: [],
    transientRetries: 0,
  };
  const telephony: Telephony = {
    placeCall: async (request) => {
      report.placedAt.push(Date.now());
      const ids = { businessId: Number(request.statusCallbackUrl.split('/').at(-2)), callId: Number(request.parameters.call_id) };
      const hold = settings.holdMs * (0.5 + Math.random());
      const failed = (step: string) => (error: unknown) => {
        report.endErrors++;
        const e = error as Error & { CancellationReasons?: { Code?: string }[] };
        const reasons = e.CancellationReasons?.map((reason) => reason.Code).join(',');
        const where = (e.stack ?? '')
          .split('\n')
          .slice(1, 6)
          .map((line) => line.trim())
          .join(' < ');
        const line = `${step} of call ${ids.callId}: ${e.name}: ${e.message}${reasons ? ` [${reasons}]` : ''} at ${where}`;
        report.endFailures.push(line);
        if (report.endFailures.length <= 3) console.error(`  [${settings.owner}] ending threw: ${line}`);
      };
      setTimeout(() => {
        void lifecycle
          .markAnswered(ids.businessId, ids.callId)
          .then(
            () =>
              new Promise((resolve) => setTimeout(resolve, hold))
                .then(() => lifecycle.end(ids.businessId, ids.callId, { endedReason: 'caller_hung_up' }))
                .catch(failed('end')),
            failed('answer'),
          );
      }, 50);
      return { callSid: `CA${ids.callId}` };
    },
    hangup: async () => undefined,
    transfer: async () => undefined,
  };
  const dial = dialOutbound({
    telephony,
    calls,
    assistants,
    minutes,
    slots,
    lifecycle,
    publicBaseUrl: 'https://media.example.com',
    streamTokenSecret: 'bench',
    now,
    log: silentLogger,
  });
  const sqs = new SQSClient({
    region: 'us-east-1',
    endpoint: settings.sqsEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const consumer = new OutboundConsumer({
    jobs: new SqsOutboundJobs(sqs, settings.queueUrl),
    calls,
    owner: settings.owner,
    now,
    log: silentLogger,
    waitTimeS: 1,
    dial: async (call) => {
      const result = await dial(call).catch((error: unknown) => {
        report.jobErrors++;
        if (report.jobErrors <= 3) console.error(`  [${settings.owner}] dial threw: ${(error as Error).name}: ${(error as Error).message}`);
        throw error;
      });
      if (result === 'deferred') report.deferred++;
      return result;
    },
  });
  void consumer.run();
  return () => {
    consumer.stop();
    return {
      ...report,
      conflicts: slots.stats.conflicts,
      refusedByRead: slots.stats.refusedByRead,
      transientRetries: lifecycle.stats.transientRetries + (slots.stats.transient ?? 0),
    };
  };
}

if (process.argv[2] === 'child' && process.send) {
  const finish = runDialler(JSON.parse(process.argv[3]!) as DiallerSettings);
  process.on('message', () => process.send!(finish()));
}
