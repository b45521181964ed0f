import { DeepgramSpeechToText } from '../../media-service/src/adapters/deepgram-speech-to-text';
import { DeepgramTextToSpeech } from '../../media-service/src/adapters/deepgram-text-to-speech';
import { OpenAiRealtime } from '../../media-service/src/adapters/openai-realtime';
import { OpenAiSpeechToText } from '../../media-service/src/adapters/openai-speech-to-text';
import { TwilioSms } from '../../media-service/src/adapters/twilio-sms';
import { TwilioTelephony } from '../../media-service/src/adapters/twilio-telephony';
import { SANDBOX_PROVIDER_LABELS, sandboxLabel } from '../../media-service/src/call/call-metrics';
import { readMediaConfig, type MediaConfig } from '../../media-service/src/config';
import { SANDBOX_ACCOUNT_SID } from '../../media-service/src/sandbox/carrier';
import { mediaLogger, startMediaRuntime, type MediaRuntimeOptions } from '../../media-service/src/server/media-runtime';
import type { Logger } from '../../shared/log';
import { paymentsTarget, sesEmail, type MediaProviders } from '../../media-service/src/server/providers';
import { carrierTypedSpeech } from '../../media-service/src/server/typed-speech';
import type { CallEvent } from '../../shared/events/catalog';
import type { EventBus } from '../../shared/events/event-bus';
import { LocalSecretBox } from '../../shared/security/secret-box';
import { recordingSessions } from './media';
import { LOCAL_HEARTBEAT_MS, MEDIA_TASK_NUMBER, type MediaTaskMessage } from './media-task-protocol';

/**
 * One call-engine process of `MEDIA_TASKS=N npm run dev` (started by `media-tasks.ts`, never by
 * hand): the same media runtime as on Fargate (server, outbound consumer on the local queue,
 * heartbeats, sweeper), with its own OWNER_ID (host name + pid), against the sandbox carrier and
 * providers the parent runs. Call events go to the parent over the IPC channel.
 */

type StartSession = NonNullable<MediaRuntimeOptions['startSession']>;

/** Sends one message to the parent; rejects when the channel is gone (the parent died). */
function send(message: MediaTaskMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send || !process.connected) return reject(new Error('the parent process is gone'));
    process.send(message, undefined, {}, (error) => (error ? reject(error) : resolve()));
  });
}

/** The EventBridge stand-in seen from a child: the parent's local event router, over IPC. */
const parentEventBus: EventBus = {
  publish: (events: CallEvent[]) => send({ type: 'events', events }),
};

/** The adapters, pointed at the sandbox servers the parent runs (one board, one carrier, one payment server for every child). */
function sharedSandboxProviders(config: MediaConfig, log: Logger): MediaProviders {
  const { DEEPGRAM_BASE_URL, OPENAI_BASE_URL, TWILIO_BASE_URL, STRIPE_API_URL, SANDBOX_AUTH_TOKEN, SES_ENDPOINT } = config;
  if (!DEEPGRAM_BASE_URL || !OPENAI_BASE_URL || !TWILIO_BASE_URL || !STRIPE_API_URL || !SANDBOX_AUTH_TOKEN || !SES_ENDPOINT)
    throw new Error(
      'A media task needs DEEPGRAM_BASE_URL, OPENAI_BASE_URL, TWILIO_BASE_URL, STRIPE_API_URL, SANDBOX_AUTH_TOKEN and SES_ENDPOINT (set by npm run dev).',
    );
  const deepgram = { apiKey: 'sandbox', baseUrl: DEEPGRAM_BASE_URL, log };
  const openAiSandbox = { apiKey: 'sk-sandbox', baseUrl: OPENAI_BASE_URL, sendTag: true, log };
  const carrier = { accountSid: SANDBOX_ACCOUNT_SID, authToken: SANDBOX_AUTH_TOKEN, baseUrl: TWILIO_BASE_URL };
  return {
    speech: {
      recognisers: {
        deepgram: { port: new DeepgramSpeechToText(deepgram), label: sandboxLabel('deepgram') },
        openai: { port: new OpenAiSpeechToText(openAiSandbox), label: sandboxLabel('openai') },
      },
      voices: { deepgram: { port: new DeepgramTextToSpeech({ ...deepgram, sendTag: true }), label: sandboxLabel('deepgram') } },
      speechToSpeech: { openai: { port: new OpenAiRealtime(openAiSandbox), label: sandboxLabel('openai-realtime') } },
    },
    openai: { apiKey: 'sk-sandbox', baseURL: OPENAI_BASE_URL },
    telephony: new TwilioTelephony(carrier),
    sms: new TwilioSms(carrier),
    email: sesEmail(config, SES_ENDPOINT, log),
    twilioAuthToken: SANDBOX_AUTH_TOKEN,
    labels: SANDBOX_PROVIDER_LABELS,
    payments: paymentsTarget(config),
    // The board is the parent's: a web call's typed line goes there through the carrier.
    typedSpeech: carrierTypedSpeech(carrier),
    close: async () => undefined,
  };
}

/** Sessions with their heartbeat shortened to `ms` when a test set it (a whole number from 100 to 30000). */
function withHeartbeat(start: StartSession, ms: string | undefined): StartSession {
  if (ms === undefined) return start;
  const heartbeatMs = Number(ms);
  if (!Number.isInteger(heartbeatMs) || heartbeatMs < 100 || heartbeatMs > 30_000)
    throw new Error(`${LOCAL_HEARTBEAT_MS} must be a whole number of ms from 100 to 30000, got "${ms.slice(0, 40)}".`);
  return (deps, input) => start({ ...deps, tuning: { ...deps.tuning, heartbeatMs } }, input);
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('scripts/local/media-task.ts is started by `MEDIA_TASKS=N npm run dev`, not by hand.');
  const task = Number(process.env[MEDIA_TASK_NUMBER]);
  const log = mediaLogger(process.env).child({ task });
  // Until the runtime runs there is nothing to drain: stopping is exiting.
  let stop: (why: string) => void = (why) => {
    log.info('media.stopped', { why });
    process.exit(0);
  };
  // Ctrl-C reaches the whole process group: the parent decides, and sends SIGTERM (drain) to each child.
  process.on('SIGINT', () => undefined);
  process.once('SIGTERM', () => stop('SIGTERM'));
  // The parent is gone (crashed, or killed with -9): no orphans.
  process.once('disconnect', () => stop('parent gone'));
  if (!process.connected) return stop('parent gone');
  const config = readMediaConfig(process.env);
  const runtime = await startMediaRuntime({
    config,
    providers: sharedSandboxProviders(config, log),
    events: parentEventBus,
    secretBox: new LocalSecretBox(config.LOCAL_SECRET_KEY!),
    host: '127.0.0.1',
    startSession: withHeartbeat(
      recordingSessions((callId) => void send({ type: 'session', call_id: callId }).catch(() => undefined)),
      process.env[LOCAL_HEARTBEAT_MS],
    ),
    log,
  });
  process.on('unhandledRejection', (reason) => log.error('media.unhandled_rejection', { error: reason }));
  let stopping = false;
  stop = (why) => {
    if (stopping) return;
    stopping = true;
    log.info('media.stopping', { why });
    // Draining is bounded by DRAIN_TIMEOUT_MS and the last long poll; this is the backstop if a write hangs.
    setTimeout(() => process.exit(1), Math.max(config.DRAIN_TIMEOUT_MS, config.OUTBOUND_WAIT_S * 1000) + 5000).unref();
    void runtime.shutdown().finally(() => process.exit(0));
  };
  if (!process.connected) return stop('parent gone');
  await send({ type: 'ready', port: runtime.server.port });
}

main().catch((error: unknown) => {
  mediaLogger(process.env).error('media.start_failed', { error });
  process.exit(1);
});
