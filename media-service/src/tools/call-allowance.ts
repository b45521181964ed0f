import { CONTACT_LIMITS } from '../../../shared/domain/caller-contact';
import { ProviderError } from '../../../shared/errors';
import { ToolRefusal, type ToolContext } from './tool-types';

/**
 * What a call can send (texts and emails to the caller, notices to the team), look up (bookings
 * under another number than the caller's) or book, each with its own per-call limit.
 */
export type AllowanceKind = 'text' | 'email' | 'team' | 'lookup' | 'booking';

/** A send to the caller. */
type CallerSend = Exclude<AllowanceKind, 'team' | 'lookup' | 'booking'>;

/** Other numbers whose bookings one call may look up (`find_appointments` with `phone`). */
export const OTHER_NUMBER_LOOKUPS_PER_CALL = 2;

/** New bookings one call may make: a caller (or a looping model) cannot fill the business's calendar. */
export const BOOKINGS_PER_CALL = 3;

const LIMITS: Readonly<Record<AllowanceKind, number>> = {
  text: CONTACT_LIMITS.textsPerCall,
  email: CONTACT_LIMITS.emailsPerCall,
  team: CONTACT_LIMITS.teamNoticesPerCall,
  lookup: OTHER_NUMBER_LOOKUPS_PER_CALL,
  booking: BOOKINGS_PER_CALL,
};

/**
 * One call's sending allowance, shared by every tool that texts or emails the caller (`send_sms`,
 * a payment link by text, a booking confirmation), so the limit holds across tools. A send takes
 * its place before it starts (two tool calls in one turn cannot both take the last one) and gives
 * it back only when the provider refused it outright: a send that timed out may have gone.
 */
export class CallAllowance {
  readonly #used: Record<AllowanceKind, number> = { text: 0, email: 0, team: 0, lookup: 0, booking: 0 };

  /** Takes one send of `kind`; false when the call has used them all. */
  take(kind: AllowanceKind): boolean {
    if (this.#used[kind] >= LIMITS[kind]) return false;
    this.#used[kind]++;
    return true;
  }

  /** Returns a send the provider refused (nothing went out). */
  giveBack(kind: AllowanceKind): void {
    this.#used[kind] = Math.max(0, this.#used[kind] - 1);
  }

  /** Sends of `kind` left on this call. */
  left(kind: AllowanceKind): number {
    return LIMITS[kind] - this.#used[kind];
  }
}

const REFUSED: Record<CallerSend, string> = {
  text: `This call has already sent the caller ${CONTACT_LIMITS.textsPerCall} texts, the most one call may send. Tell the caller, and read the details out instead.`,
  email: `This call has already sent ${CONTACT_LIMITS.emailsPerCall} emails, the most one call may send. Tell the caller, and read the details out instead.`,
};

/**
 * Runs one send within the call's allowance: refused when it is used up, given back when the
 * provider refused the send outright (4xx other than 408/429: nothing went out).
 */
export async function withAllowance<T>(context: ToolContext, kind: CallerSend, send: () => Promise<T>): Promise<T> {
  if (!context.allowance.take(kind)) throw new ToolRefusal(REFUSED[kind]);
  try {
    return await send();
  } catch (error) {
    if (error instanceof ProviderError && error.statusCode !== undefined && !error.retryable) context.allowance.giveBack(kind);
    throw error;
  }
}
