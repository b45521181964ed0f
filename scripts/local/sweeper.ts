import type { CoreDeps } from '../../functions/lib/deps';
import { createSweeper } from '../../functions/sweeper/deps';
import { TwilioTelephony } from '../../media-service/src/adapters/twilio-telephony';
import type { SandboxCarrier } from '../../media-service/src/sandbox/carrier';
import type { EventBus } from '../../shared/events/event-bus';
import type { OutboundCallQueue } from '../../shared/queue/outbound-calls';
import type { SweepLimits } from '../../shared/services/call-sweeper';
import type { Logger } from '../../shared/log';

/** The env variables that set the local sweeper's limits (ms), and its period. */
const LIMIT_ENV: Record<keyof SweepLimits, string> = {
  staleHeartbeatMs: 'SWEEP_STALE_HEARTBEAT_MS',
  unfinishedEndingMs: 'SWEEP_UNFINISHED_ENDING_MS',
  queuedTooLongMs: 'SWEEP_QUEUED_TOO_LONG_MS',
  queuedGiveUpMs: 'SWEEP_QUEUED_GIVE_UP_MS',
  ringingTooLongMs: 'SWEEP_RINGING_TOO_LONG_MS',
  webJoinGraceMs: 'SWEEP_WEB_JOIN_GRACE_MS',
};

/** Options of {@link startLocalSweeper}. */
export interface LocalSweeperOptions {
  queue: OutboundCallQueue;
  /** The after-call pipeline's bus: the sweeper's endings publish call.ended there. */
  events: EventBus;
  /** The sandbox carrier the sweeper hangs calls up on. */
  carrier: Pick<SandboxCarrier, 'accountSid' | 'authToken' | 'baseUrl'>;
  /** Where the limits are read (SWEEP_EVERY_MS, SWEEP_STALE_HEARTBEAT_MS, ...); default process.env. */
  env?: Record<string, string | undefined>;
  log: Logger;
}

/**
 * `npm run dev`'s one sweeper: a timer in the parent process, off the call engine's thread (AWS
 * runs the same sweep as a scheduled Lambda). Limits come from the env, so a test can kill a call
 * engine mid-call and see the call ended within seconds. Returns its stop.
 */
export function startLocalSweeper(core: Pick<CoreDeps, 'db'>, options: LocalSweeperOptions): () => void {
  const env = options.env ?? process.env;
  const limits: Partial<SweepLimits> = {};
  for (const [limit, name] of Object.entries(LIMIT_ENV) as [keyof SweepLimits, string][]) {
    if (env[name] !== undefined) limits[limit] = positiveMs(name, env[name]);
  }
  const everyMs = env.SWEEP_EVERY_MS === undefined ? 60_000 : positiveMs('SWEEP_EVERY_MS', env.SWEEP_EVERY_MS);
  const sweeper = createSweeper({
    db: core.db,
    events: options.events,
    queue: options.queue,
    telephony: new TwilioTelephony(options.carrier),
    log: options.log,
    limits,
  });
  return sweeper.start(everyMs);
}

function positiveMs(name: string, value: string): number {
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1 || ms > 86_400_000)
    throw new Error(`${name} must be a whole number of ms from 1 to 86400000, got "${value}".`);
  return ms;
}
