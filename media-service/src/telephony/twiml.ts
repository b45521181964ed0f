/** XML-escapes text and attribute values (TwiML is XML; a caller id or parameter may hold `&` or `"`). */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);
}

/**
 * How many times the TwiML opens the stream. Twilio runs the verb after `<Connect>` once its
 * stream ends, and a refused handshake ends it at once: a task at its admission cap answers the
 * upgrade 503, and the next `<Connect>` reaches the load balancer again, which picks the next task.
 * Three attempts pass two full tasks; each refusal costs the caller one round trip of silence.
 */
export const STREAM_ATTEMPTS = 3;

/**
 * `<Connect><Stream>` with `<Parameter>`s, {@link STREAM_ATTEMPTS} times: the stream URL "does not
 * support query string parameters", so the call id and its signed token travel as parameters and
 * arrive in the `start` message's `customParameters`. Only `inbound_track` is valid with
 * `<Connect>`. A stream that ran ends only with the call (our session hangs up first), so the
 * later copies run only after a refusal; a stream for a call that already has one is refused
 * again by the one-time attach.
 */
export function connectStreamTwiml(streamUrl: string, parameters: Record<string, string>, attempts = STREAM_ATTEMPTS): string {
  const params = Object.entries(parameters)
    .map(([name, value]) => `<Parameter name="${escapeXml(name)}" value="${escapeXml(value)}"/>`)
    .join('');
  const connect = `<Connect><Stream url="${escapeXml(streamUrl)}">${params}</Stream></Connect>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${connect.repeat(Math.max(1, attempts))}</Response>`;
}

/**
 * A spoken apology and hang-up (inbound calls we cannot take, e.g. over the concurrency cap);
 * `language` (a locale, `es-ES`) sets `<Say language>` so Twilio reads it with a voice of that language.
 */
export function sayAndHangupTwiml(text: string, language = 'en-US'): string {
  const attribute = language === 'en-US' ? '' : ` language="${escapeXml(language)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Say${attribute}>${escapeXml(text)}</Say><Hangup/></Response>`;
}

/** Transfers the live call to a number (ends the media stream; Twilio bridges the call). */
export function dialTwiml(number: string, callerId?: string): string {
  const attribute = callerId ? ` callerId="${escapeXml(callerId)}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Dial${attribute}>${escapeXml(number)}</Dial></Response>`;
}
