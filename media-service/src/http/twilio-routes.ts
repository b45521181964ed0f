import { Hono, type Context } from 'hono';
import { carrierTransition } from '../../../shared/domain/carrier-status';
import type { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { parseTwilioAmdCallback } from '../adapters/twilio-telephony';
import type { AnsweredBy } from '../ports/telephony';
import { signStreamToken } from '../telephony/stream-token';
import { isValidTwilioSignature, type TwilioParams } from '../telephony/twilio-signature';
import { connectStreamTwiml, sayAndHangupTwiml } from '../telephony/twiml';
import { fixedLines } from '../../../shared/domain/fixed-lines';
import { callLanguage } from '../../../shared/domain/languages';
import { acceptInboundCall, type InboundCallDeps } from './inbound-call';
import { DEFAULT_SWEEP_LIMITS } from '../../../shared/services/call-sweeper';
import type { Logger } from '../../../shared/log';

export interface TwilioRoutesOptions extends InboundCallDeps {
  lifecycle: CallLifecycle;
  authToken: string;
  /** The https origin Twilio calls (never rebuilt from proxy headers). */
  publicBaseUrl: string;
  streamTokenSecret: string;
  /** How long a stream token opens a media stream after the TwiML is issued. */
  streamTokenTtlMs?: number;
  log: Logger;
  /**
   * True while this process runs the call's media session. A `completed` status then leaves the
   * ending to the session, which ends the call with its transcript and metrics (first reason wins);
   * a session on another task is recognised by its attached stream and fresh heartbeat.
   */
  hasLiveSession?: (callId: number) => boolean;
  /** Hands an answering-machine verdict to the call's live session (no-op when none runs here). */
  onAmd?: (callId: number, answeredBy: AnsweredBy) => void;
  /** False while this task is at its admission cap (MEDIA_MAX_CALLS): the voice webhook is refused. */
  hasRoom?: () => boolean;
}

/** What a caller hears when no task could take the call. */
const APOLOGY = 'Sorry, we cannot take your call right now. Please try again later. Goodbye.';

const xml = (c: Context, body: string) => c.body(body, 200, { 'content-type': 'text/xml' });

/** Reads the form body and checks X-Twilio-Signature against the public URL; undefined when forged. */
async function signedForm(c: Context, options: TwilioRoutesOptions): Promise<Record<string, string> | undefined> {
  const form = new URLSearchParams(await c.req.text());
  const params: TwilioParams = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    params[key] = values.length === 1 ? values[0]! : values;
  }
  const url = new URL(c.req.path + (new URL(c.req.url).search || ''), options.publicBaseUrl).toString();
  if (!isValidTwilioSignature(options.authToken, c.req.header('x-twilio-signature'), url, params)) return undefined;
  return Object.fromEntries(form.entries());
}

/**
 * Twilio's HTTP callbacks: the inbound voice webhook (answers TwiML that connects the media stream
 * with a signed token), call status callbacks (drive the call record) and async AMD verdicts
 * (stored on the call and handed to its live session). Every request's X-Twilio-Signature is
 * checked; a forged one gets 403 and changes nothing.
 */
export function twilioRoutes(options: TwilioRoutesOptions) {
  return new Hono()
    .post('/twilio/voice', async (c) => {
      const form = await signedForm(c, options);
      if (!form) return c.text('invalid signature', 403);
      if (options.hasRoom && !options.hasRoom()) return atTaskCap(c, form, options);
      const decision = await acceptInboundCall(options, { to: form.To ?? '', from: form.From ?? '', carrierCallSid: form.CallSid ?? '' });
      if (decision.kind === 'refuse') {
        options.log.warn(`inbound call to ${form.To} refused: ${decision.reason}`);
        const language = callLanguage({ language: decision.language ?? 'en' });
        return xml(c, sayAndHangupTwiml(fixedLines(language.code).cannotTakeCall, language.locale));
      }
      const call = decision.call;
      const token = signStreamToken(options.streamTokenSecret, {
        callId: call.id,
        businessId: call.business_id,
        expiresAt: options.now().getTime() + (options.streamTokenTtlMs ?? 60_000),
      });
      const streamUrl = new URL('/twilio/media', options.publicBaseUrl.replace(/^http/, 'ws')).toString();
      return xml(c, connectStreamTwiml(streamUrl, { call_id: String(call.id), token }));
    })
    .post('/twilio/status/:business_id/:call_id', async (c) => {
      const form = await signedForm(c, options);
      if (!form) return c.text('invalid signature', 403);
      const ids = callIds(c);
      if (!ids) return c.text('bad call', 404);
      const transition = carrierTransition(form.CallStatus ?? '');
      if (transition.kind === 'ringing') await options.lifecycle.markRinging(ids.businessId, ids.callId);
      if (transition.kind === 'answered') await options.lifecycle.markAnswered(ids.businessId, ids.callId);
      if (transition.kind === 'ended' && !(await leftToItsSession(options, ids, form.CallStatus))) {
        await options.lifecycle.end(ids.businessId, ids.callId, { endedReason: transition.endedReason });
      }
      return c.body(null, 204);
    })
    .post('/twilio/amd/:business_id/:call_id', async (c) => {
      const form = await signedForm(c, options);
      if (!form) return c.text('invalid signature', 403);
      const ids = callIds(c);
      const amd = parseTwilioAmdCallback(form);
      if (!ids || !amd) return c.text('bad callback', 400);
      const stored = await storeAnsweredBy(options, ids, amd.answeredBy);
      if (stored) options.onAmd?.(ids.callId, amd.answeredBy);
      return c.body(null, 204);
    });
}

/**
 * The voice webhook on a task at its cap: nothing is recorded and nothing is charged (the call
 * never reached the business). The first request gets 503, so Twilio requests the number's Voice
 * Fallback URL, set to this same route, which the load balancer sends to another task. That request
 * carries `ErrorCode`; if it finds a full task too there is no third try, so the caller hears the
 * apology instead of Twilio's generic error message.
 */
function atTaskCap(c: Context, form: Record<string, string>, options: TwilioRoutesOptions) {
  const fallback = form.ErrorCode !== undefined;
  options.log.warn('media.inbound.at_task_cap', { call_sid: form.CallSid, fallback });
  if (fallback) return xml(c, sayAndHangupTwiml(APOLOGY));
  return c.text('at capacity', 503, { 'retry-after': '1' });
}

/**
 * Whether a `completed` callback must leave the call to the media session that owns it. The
 * session ends the call itself, with its transcript, metrics and recording, when the carrier stops
 * its stream; ending it here first would win the "first reason wins" write and lose all of that.
 * The session may run on this task (the registry knows) or on any other one behind the load
 * balancer: then the call has an attached stream and a heartbeat fresher than the sweeper's limit,
 * and the callback is only recorded (`carrier_completed_at`). A session that died leaves a stale
 * heartbeat, so the callback ends the call; the sweeper remains the backstop.
 */
async function leftToItsSession(
  options: TwilioRoutesOptions,
  ids: { businessId: number; callId: number },
  status: string | undefined,
): Promise<boolean> {
  if (status !== 'completed') return false;
  if (options.hasLiveSession?.(ids.callId)) return true;
  const call = await options.calls.getCallRecord(ids.businessId, ids.callId);
  if (!call || call.status === 'ended' || call.media_started_at === undefined) return false;
  const now = options.now();
  const lastBeat = Date.parse(call.heartbeat_at ?? call.media_started_at);
  if (!(now.getTime() - lastBeat < DEFAULT_SWEEP_LIMITS.staleHeartbeatMs)) return false;
  await options.calls.recordCarrierCompleted(ids.businessId, ids.callId, now.toISOString());
  return true;
}

/** The business and call ids of a callback path; undefined when they are not integers. */
function callIds(c: Context): { businessId: number; callId: number } | undefined {
  const businessId = Number(c.req.param('business_id'));
  const callId = Number(c.req.param('call_id'));
  return Number.isSafeInteger(businessId) && Number.isSafeInteger(callId) ? { businessId, callId } : undefined;
}

/** Records the AMD verdict on the call; false (logged) when the call does not exist. */
async function storeAnsweredBy(
  options: TwilioRoutesOptions,
  ids: { businessId: number; callId: number },
  answeredBy: AnsweredBy,
): Promise<boolean> {
  if (await options.calls.recordAnsweredBy(ids.businessId, ids.callId, answeredBy)) return true;
  options.log.warn(`AMD verdict for unknown call ${ids.businessId}/${ids.callId} ignored`);
  return false;
}
