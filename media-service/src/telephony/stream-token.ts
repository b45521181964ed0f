import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a media stream token vouches for. */
export interface StreamClaims {
  callId: number;
  businessId: number;
  /** Epoch milliseconds after which the token no longer opens a stream. */
  expiresAt: number;
}

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/**
 * A token carried as a `<Parameter>` of the stream, binding a media WebSocket to its call: any task
 * can serve any call's stream (the service is stateless between calls), and a forged or replayed
 * stream for another call is refused. Format: `<callId>.<businessId>.<expiresAt>.<HMAC-SHA256>`.
 */
export function signStreamToken(secret: string, claims: StreamClaims): string {
  const payload = `${claims.callId}.${claims.businessId}.${claims.expiresAt}`;
  return `${payload}.${mac(secret, payload)}`;
}

/** The claims of a valid, unexpired token; undefined for anything else (tampered, expired, garbage). */
export function verifyStreamToken(secret: string, token: string, nowMs: number): StreamClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 4 || !parts.slice(0, 3).every((part) => /^\d{1,16}$/.test(part))) return undefined;
  const [callId, businessId, expiresAt, signature] = parts as [string, string, string, string];
  const expected = Buffer.from(mac(secret, `${callId}.${businessId}.${expiresAt}`));
  const received = Buffer.from(signature);
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return undefined;
  if (Number(expiresAt) <= nowMs) return undefined;
  return { callId: Number(callId), businessId: Number(businessId), expiresAt: Number(expiresAt) };
}
