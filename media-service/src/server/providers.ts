import { DeepgramSpeechToText } from '../adapters/deepgram-speech-to-text';
import { DeepgramTextToSpeech } from '../adapters/deepgram-text-to-speech';
import { OpenAiRealtime } from '../adapters/openai-realtime';
import { OpenAiSpeechToText } from '../adapters/openai-speech-to-text';
import { SesEmail } from '../adapters/ses-email';
import { TwilioSms } from '../adapters/twilio-sms';
import { TwilioTelephony } from '../adapters/twilio-telephony';
import type { ProviderLabels } from '../call/session-types';
import { sandboxLabel } from '../call/call-metrics';
import type { SpeechProviders } from '../call/providers';
import type { MediaConfig } from '../config';
import type { PacerScheduler } from '../pipeline/pacer-scheduler';
import type { EmailSender } from '../ports/email-sender';
import { SandboxCarrier } from '../sandbox/carrier';
import { DeepgramSandboxServer } from '../sandbox/deepgram-server';
import { OpenAiSandboxServer } from '../sandbox/openai-server';
import { PaymentsSandboxServer, SANDBOX_PAYMENT_KEY } from '../sandbox/payments-server';
import { SesSandboxServer } from '../sandbox/ses-server';
import { TranscriptBoard } from '../sandbox/transcript-board';
import { ProviderError } from '../../../shared/errors';
import type { TypedSpeech } from '../ports/web-calls';
import { boardTypedSpeech } from './typed-speech';
import type { Logger } from '../../../shared/log';

/** The platform's OpenAI account (or the sandbox's), for assistants on `provider: openai`. */
export interface OpenAiTarget {
  apiKey: string;
  /** Undefined: https://api.openai.com/v1. */
  baseURL?: string;
}

/** Where payment-link requests go (unset: Stripe's API), and the key of a business without its own (the sandbox's only). */
export interface PaymentsTarget {
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  fallbackKey?: string;
}

/** Hosts a sandbox payment server may be reached at (`URL.hostname` spellings). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The payments target from the config, pointed at `sandbox` when this process runs one. */
export function paymentsTarget(config: MediaConfig, sandbox?: PaymentsSandboxServer): PaymentsTarget {
  const url = sandbox?.baseUrl ?? config.STRIPE_API_URL;
  // The sandbox key never travels to Stripe itself: with SANDBOX_PAYMENTS the target must be a sandbox.
  if (config.SANDBOX_PAYMENTS && !url)
    throw new Error('SANDBOX_PAYMENTS needs the sandbox payment server: start one, or set STRIPE_API_URL to it.');
  const fallback = config.SANDBOX_PAYMENTS ? { fallbackKey: SANDBOX_PAYMENT_KEY } : {};
  if (!url) return fallback;
  const { hostname, port, protocol } = new URL(url);
  if (config.SANDBOX_PAYMENTS && !LOOPBACK_HOSTS.has(hostname))
    throw new Error(
      `SANDBOX_PAYMENTS sends the sandbox key, so STRIPE_API_URL must be a sandbox on this machine (127.0.0.1), not ${hostname}.`,
    );
  const scheme = protocol === 'http:' ? 'http' : 'https';
  return { host: hostname, port: Number(port || (scheme === 'http' ? 80 : 443)), protocol: scheme, ...fallback };
}

/** The providers one media process uses, and the sandbox servers it started for them. */
export interface MediaProviders {
  /**
   * The registry's speech providers, each labelled: recognisers Flux (`deepgram`) and OpenAI
   * transcription (`openai`), the Aura voice (`deepgram`), and OpenAI Realtime for live mode
   * (`openai`), or the sandbox's of each.
   */
  speech: SpeechProviders;
  openai: OpenAiTarget;
  telephony: TwilioTelephony;
  /** Texts through the same Twilio account (or the sandbox carrier's Messages). */
  sms: TwilioSms;
  /** Email through SES (or the local SES stand-in); refusing every send on a stage without a sender address. */
  email: EmailSender;
  /** The key Twilio (or the sandbox carrier) signs callbacks and stream upgrades with. */
  twilioAuthToken: string;
  labels: ProviderLabels;
  payments: PaymentsTarget;
  /** Set when the sandbox payment server runs in this process (SANDBOX_PAYMENTS=true without STRIPE_API_URL). */
  paymentsSandbox?: PaymentsSandboxServer;
  /** Set when the sandbox carrier runs in this process (SANDBOX_CARRIER=true: local stack and tests). */
  carrier?: SandboxCarrier;
  deepgramSandbox?: DeepgramSandboxServer;
  /** Started here on stage local when no SES_ENDPOINT was given. */
  sesSandbox?: SesSandboxServer;
  openAiSandbox?: OpenAiSandboxServer;
  /** Typed speech on web calls: through the sandbox board when a sandbox recogniser hears them; absent with real providers. */
  typedSpeech?: TypedSpeech;
  /** Closes the sandbox servers started here. */
  close(): Promise<void>;
}

/** Options of {@link startProviders}. */
export interface StartProvidersOptions {
  /** Where sandbox callees announce their words to the sandbox Flux (one board per process). */
  board?: TranscriptBoard;
  /** An OpenAI-compatible sandbox already running (shared with the after-call analysis). */
  openAiSandboxUrl?: string;
  /** The shared 10 ms ticker, also driving the sandbox carrier's simulated callees. */
  scheduler?: PacerScheduler;
  log: Logger;
}

/**
 * The real adapters for every provider whose credentials are configured, else a loopback sandbox
 * server speaking the same wire protocol (README: empty secrets mean the sandbox providers). The
 * labels say which, and end up in every call's metrics.
 */
export async function startProviders(config: MediaConfig, options: StartProvidersOptions): Promise<MediaProviders> {
  const board = options.board ?? new TranscriptBoard();
  const started: { close(): Promise<void> }[] = [];
  const deepgramSandbox = config.DEEPGRAM_API_KEY ? undefined : await DeepgramSandboxServer.start({ board });
  if (deepgramSandbox) started.push(deepgramSandbox);
  const deepgram = {
    apiKey: config.DEEPGRAM_API_KEY ?? 'sandbox',
    ...((deepgramSandbox?.baseUrl ?? config.DEEPGRAM_BASE_URL) && { baseUrl: deepgramSandbox?.baseUrl ?? config.DEEPGRAM_BASE_URL }),
    log: options.log,
  };
  const openAiSandbox = config.OPENAI_API_KEY || options.openAiSandboxUrl ? undefined : await OpenAiSandboxServer.start({ board });
  if (openAiSandbox) started.push(openAiSandbox);
  // Live mode hears sandbox callees through the board, so a shared sandbox without it gets a sibling that has it.
  const realtimeSandbox = config.OPENAI_API_KEY ? undefined : (openAiSandbox ?? (await OpenAiSandboxServer.start({ board })));
  if (realtimeSandbox && realtimeSandbox !== openAiSandbox) started.push(realtimeSandbox);
  const sandboxUrl = openAiSandbox?.baseUrl ?? options.openAiSandboxUrl;
  const openai: OpenAiTarget = config.OPENAI_API_KEY
    ? { apiKey: config.OPENAI_API_KEY, ...(config.OPENAI_BASE_URL && { baseURL: config.OPENAI_BASE_URL }) }
    : { apiKey: 'sk-sandbox', baseURL: sandboxUrl! };
  const carrier = !config.SANDBOX_CARRIER
    ? undefined
    : await SandboxCarrier.start({
        ...(config.SANDBOX_AUTH_TOKEN && { authToken: config.SANDBOX_AUTH_TOKEN }),
        utterances: board,
        // Like a Twilio number's VoiceUrl: where `POST /sandbox/inbound-calls` rings.
        voiceUrl: new URL('/twilio/voice', config.PUBLIC_BASE_URL).toString(),
        // Like its Voice Fallback URL: the same route, tried once when a task at its cap answers 503.
        voiceFallbackUrl: new URL('/twilio/voice', config.PUBLIC_BASE_URL).toString(),
        ...(options.scheduler && { scheduler: options.scheduler }),
        log: options.log,
      });
  if (carrier) started.push(carrier);
  const paymentsSandbox = config.SANDBOX_PAYMENTS && !config.STRIPE_API_URL ? await PaymentsSandboxServer.start() : undefined;
  if (paymentsSandbox) started.push(paymentsSandbox);
  const sesSandbox = config.STAGE === 'local' && !config.SES_ENDPOINT ? await SesSandboxServer.start() : undefined;
  if (sesSandbox) started.push(sesSandbox);
  const twilio = carrier
    ? { accountSid: carrier.accountSid, authToken: carrier.authToken, baseUrl: carrier.baseUrl }
    : {
        accountSid: config.TWILIO_ACCOUNT_SID!,
        authToken: config.TWILIO_AUTH_TOKEN!,
        ...(config.TWILIO_BASE_URL && { baseUrl: config.TWILIO_BASE_URL }),
      };
  const labels: ProviderLabels = {
    stt: deepgramSandbox ? sandboxLabel('deepgram') : 'deepgram',
    tts: deepgramSandbox ? sandboxLabel('deepgram') : 'deepgram',
    llm: config.OPENAI_API_KEY ? 'openai' : sandboxLabel('openai'),
    telephony: carrier ? sandboxLabel('twilio') : 'twilio',
  };
  // OpenAI transcription and Realtime: the sandbox's (told each call's SID), else the platform key.
  const realtimeTarget = realtimeSandbox
    ? { apiKey: 'sk-sandbox', baseUrl: realtimeSandbox.baseUrl, sendTag: true, log: options.log }
    : { apiKey: config.OPENAI_API_KEY!, ...(config.OPENAI_BASE_URL && { baseUrl: config.OPENAI_BASE_URL }), log: options.log };
  return {
    speech: {
      recognisers: {
        deepgram: { port: new DeepgramSpeechToText(deepgram), label: labels.stt },
        openai: { port: new OpenAiSpeechToText(realtimeTarget), label: realtimeSandbox ? sandboxLabel('openai') : 'openai' },
      },
      // The sandbox is told each call's SID, as Flux is (a fault number's voice fault reads it).
      voices: { deepgram: { port: new DeepgramTextToSpeech({ ...deepgram, sendTag: deepgramSandbox !== undefined }), label: labels.tts } },
      speechToSpeech: {
        openai: { port: new OpenAiRealtime(realtimeTarget), label: realtimeSandbox ? sandboxLabel('openai-realtime') : 'openai-realtime' },
      },
    },
    openai,
    telephony: new TwilioTelephony(twilio),
    sms: new TwilioSms(twilio),
    email: sesEmail(config, sesSandbox?.endpoint ?? config.SES_ENDPOINT, options.log),
    twilioAuthToken: twilio.authToken,
    labels,
    payments: paymentsTarget(config, paymentsSandbox),
    ...(paymentsSandbox && { paymentsSandbox }),
    ...(carrier && { carrier }),
    ...(deepgramSandbox && { deepgramSandbox }),
    ...(sesSandbox && { sesSandbox }),
    ...(openAiSandbox && { openAiSandbox }),
    // The sandbox Flux (and the Realtime stand-in) read this board: a typed line goes on it.
    ...(deepgramSandbox && { typedSpeech: boardTypedSpeech(board) }),
    close: async () => void (await Promise.all(started.map((server) => server.close()))),
  };
}

/** The sender address on stage local, where no SES identity exists (`.localhost` never routes anywhere). */
export const LOCAL_EMAIL_FROM_ADDRESS = 'assistant@voice-agent.localhost';

/**
 * SES from the config: the local SES stand-in at `endpoint` (any credentials), else the regional
 * endpoint with the task role. A deployed stage without EMAIL_FROM_ADDRESS (a dev stage with no
 * `emailDomain`) gets a sender that refuses every email, said once in the log at start.
 */
export function sesEmail(config: MediaConfig, endpoint: string | undefined, log: Logger): EmailSender {
  const fromAddress = config.EMAIL_FROM_ADDRESS ?? (config.STAGE === 'local' ? LOCAL_EMAIL_FROM_ADDRESS : undefined);
  if (!fromAddress) {
    log.warn('media.email_unconfigured', { reason: 'EMAIL_FROM_ADDRESS is empty: set the stage emailDomain (infra/config.ts)' });
    return {
      send: () =>
        Promise.reject(new ProviderError('ses', 'No sender address (EMAIL_FROM_ADDRESS) on this stage', 503, { retryable: false })),
    };
  }
  return new SesEmail({
    region: config.SES_REGION ?? config.AWS_REGION,
    fromAddress,
    ...(endpoint && { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  });
}
