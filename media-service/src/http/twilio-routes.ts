import { Hono, type Context } from 'hono';
import { carrierTransition } from '../../../shared/domain/carrier-status';
import type { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { signStreamToken } from '../telephony/stream-token';
import { isValidTwilioSignature, type TwilioParams } from '../telephony/twilio-signature';
import { connectStreamTwiml, sayAndHangupTwiml } from '../telephony/twiml';
import { acceptInboundCall, type InboundCallDeps } from './inbound-call';

export interface TwilioRoutesOptions extends InboundCallDeps {
  lifecycle: CallLifecycle;
  authToken: string;
  /** The https origin Twilio calls (never rebuilt from proxy headers). */
  publicBaseUrl: string;
  streamTokenSecret: string;
  /** How long a stream token opens a media stream after the TwiML is issued. */
  streamTokenTtlMs?: number;
  log: (message: string, error?: unknown) => void;
}

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
 * with a signed token) and call status callbacks (drive the call record). Every request's
 * X-Twilio-Signature is checked; a forged one gets 403 and changes nothing.
 */
export function twilioRoutes(options: TwilioRoutesOptions) {
  return new Hono()
    .post('/twilio/voice', async (c) => {
      const form = await signedForm(c, options);
      if (!form) return c.text('invalid signature', 403);
      const decision = await acceptInboundCall(options, { to: form.To ?? '', from: form.From ?? '', carrierCallSid: form.CallSid ?? '' });
      if (decision.kind === 'refuse') {
        options.log(`inbound call to ${form.To} refused: ${decision.reason}`);
        return xml(c, sayAndHangupTwiml('Sorry, we cannot take your call right now. Please try again later. Goodbye.'));
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
      const businessId = Number(c.req.param('business_id'));
      const callId = Number(c.req.param('call_id'));
      if (!Number.isSafeInteger(businessId) || !Number.isSafeInteger(callId)) return c.text('bad call', 404);
      const transition = carrierTransition(form.CallStatus ?? '');
      if (transition.kind === 'ringing') await options.lifecycle.markRinging(businessId, callId);
      if (transition.kind === 'answered') await options.lifecycle.markAnswered(businessId, callId);
      if (transition.kind === 'ended') await options.lifecycle.end(businessId, callId, { endedReason: transition.endedReason });
      return c.body(null, 204);
    });
}
