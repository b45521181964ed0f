import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { callEndedWithErrorEmf } from '../../shared/metrics/active-calls-metric';
import { readConfig } from '../../shared/config';
import { createDb } from '../../shared/db/client';
import { EventBridgeBus } from '../../shared/events/event-bus';
import { SqsOutboundCallQueue } from '../../shared/queue/outbound-calls';
import { TwilioHangup } from '../../shared/telephony/twilio-hangup';
import type { CallSweeper, CarrierHangup } from '../../shared/services/call-sweeper';
import { functionLogger } from '../lib/deps';
import { createSweeper } from './deps';

const log = functionLogger('sweeper');

const config = readConfig(
  v.object({
    STAGE: v.pipe(v.string(), v.minLength(1)),
    TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
    EVENT_BUS_NAME: v.pipe(v.string(), v.minLength(1)),
    OUTBOUND_QUEUE_URL: v.pipe(v.string(), v.minLength(1)),
    /** The Twilio secret (JSON {"account_sid", "auth_token"}): hang-ups of the calls it ends. */
    TWILIO_SECRET_ARN: v.pipe(v.string(), v.minLength(1)),
    AWS_REGION: v.optional(v.string(), 'us-east-1'),
  }),
  process.env,
);

/** The carrier hang-up, read once per cold start; none while the secret is not filled in (no call was placed then). */
async function carrier(): Promise<CarrierHangup | undefined> {
  const secret = await new SecretsManagerClient({ region: config.AWS_REGION }).send(
    new GetSecretValueCommand({ SecretId: config.TWILIO_SECRET_ARN }),
  );
  const twilio = JSON.parse(secret.SecretString ?? '{}') as { account_sid?: string; auth_token?: string };
  if (!twilio.account_sid || !twilio.auth_token) return undefined;
  return new TwilioHangup({ accountSid: twilio.account_sid, authToken: twilio.auth_token });
}

let sweeper: Promise<CallSweeper> | undefined;

function build(): Promise<CallSweeper> {
  return carrier().then((telephony) =>
    createSweeper({
      db: createDb({ tableName: config.TABLE_NAME, region: config.AWS_REGION }),
      events: new EventBridgeBus(new EventBridgeClient({ region: config.AWS_REGION }), config.EVENT_BUS_NAME),
      queue: new SqsOutboundCallQueue(new SQSClient({ region: config.AWS_REGION }), config.OUTBOUND_QUEUE_URL),
      ...(telephony && { telephony }),
      log,
      // Calls the sweeper ends with `error` count toward the same ops alarm as the engine's.
      onEnded: (call) => {
        if (call.ended_reason === 'error') process.stdout.write(`${callEndedWithErrorEmf(config.STAGE, Date.now())}\n`);
      },
    }),
  );
}

/** Lambda entry: the EventBridge schedule, every minute. A failed read of the open calls throws (the errors alarm). */
export const handler = async () => {
  sweeper ??= build().catch((error: unknown) => {
    sweeper = undefined;
    throw error;
  });
  const report = await (await sweeper).sweepOnce();
  log.info('sweeper.report', { ...report });
  return report;
};
