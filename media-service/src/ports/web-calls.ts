import type { CallRecord } from './call-records';

/**
 * What the media side of a web call needs from the platform's records (docs/protocols.md "Web
 * calls"): the single-use token redeemed once. The composition root passes the table-backed
 * implementation (`../adapters/dynamodb-web-call-tokens.ts`: the AWS SDK may be used only in adapters and composition roots).
 */
export interface WebCallTokens {
  /**
   * Redeems a web call's token in one conditional write: it holds only while the call stores this
   * hash, the token has not expired and the call is still queued; the hash is then removed. The
   * call as it now stands, or undefined when refused (second use, expired, another business's
   * token, an ended call, no such call).
   */
  redeem(businessId: number, callId: number, tokenHash: string, nowMs: number): Promise<CallRecord | undefined>;
  /**
   * Redeems a listen token (`POST /calls/{id}/listen`) the same way: it holds only while the call
   * stores this hash as `listen_token_hash`, the token has not expired and the call is in progress.
   */
  redeemListen(businessId: number, callId: number, tokenHash: string, nowMs: number): Promise<CallRecord | undefined>;
}

/**
 * Typed speech on a web call: a line the browser typed, made heard as the caller's words. On the
 * sandbox the line goes on the transcript board for the call's tag (as a simulated caller's words
 * do) and speech-like audio of its length is returned to play; with real providers there is no
 * way yet (a refusal in words).
 */
export interface TypedSpeech {
  /** The μ-law 8 kHz audio to play as the caller's, once the line is where the recogniser will find it; or why not. */
  say(tag: string, text: string): Promise<Uint8Array | { refused: string }>;
}
