/** XML-escapes text and attribute values (TwiML is XML; a caller id or parameter may hold `&` or `"`). */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);
}

/**
 * `<Connect><Stream>` with `<Parameter>`s: the stream URL "does not support query string
 * parameters", so the call id and its signed token travel as parameters and arrive in the
 * `start` message's `customParameters`. Only `inbound_track` is valid with `<Connect>`.
 */
export function connectStreamTwiml(streamUrl: string, parameters: Record<string, string>): string {
  const params = Object.entries(parameters)
    .map(([name, value]) => `<Parameter name="${escapeXml(name)}" value="${escapeXml(value)}"/>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="${escapeXml(streamUrl)}">${params}</Stream></Connect></Response>`;
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
