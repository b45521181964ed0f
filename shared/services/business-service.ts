import { createHash, randomBytes } from 'node:crypto';
import { CALENDAR_FEED_DAYS } from '../domain/booking';
import { applyBusinessPatch, toBusinessView, type BusinessView } from '../domain/business-settings';
import type { Business, BusinessRepository } from '../db/business-repository';
import type { CalendarFeedRepository } from '../db/calendar-feed-repository';
import type { CatalogRepository } from '../db/catalog-repository';
import { lineRegions, TEXTING_RULES } from '../phone/texting';
import { ConflictError, NotFoundError } from '../errors';
import type { SecretBox } from '../security/secret-box';
import { bookingsCalendar, DEFAULT_UID_DOMAIN } from './bookings-calendar';
import type { BookingService } from './booking-service';

/** What the business profile and calendar feed use cases need. */
export interface BusinessServiceDeps {
  businesses: BusinessRepository;
  calendarFeeds: CalendarFeedRepository;
  /** The business's numbers: their regions are where its team phones may be (docs/decisions.md "Texts by region and number type"). */
  catalog: Pick<CatalogRepository, 'listPhoneNumbers'>;
  bookings: BookingService;
  secretBox: SecretBox;
  now: () => Date;
  /** The domain in every booking's iCalendar UID (stable: changing it duplicates events in subscribed calendars). */
  calendarUidDomain?: string;
}

/** Sealing context of a business's payment provider key (the payment tool opens it with the same context). */
export function paymentKeyContext(businessId: number): Record<string, string> {
  return { business_id: String(businessId), purpose: 'payment_key' };
}

/** The calendar feed's path under the API, for a token. */
export function calendarFeedPath(token: string): string {
  return `/api/v1/calendars/${token}.ics`;
}

const FEED_TOKEN_PREFIX = 'calf_';
/** A feed token: the prefix and 32 random bytes, base64url (43 characters). */
const FEED_TOKEN_PATTERN = /^calf_[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;

/**
 * The business fields a validated profile patch writes: the profile, and the payment key sealed
 * bound to the business (`null` in the patch removes it). PATCH /business and `admin set-profile` share it.
 */
export async function profileUpdate(
  secretBox: SecretBox,
  businessId: number,
  applied: ReturnType<typeof applyBusinessPatch>,
): Promise<Parameters<BusinessRepository['updateBusiness']>[1]> {
  const fields: Parameters<BusinessRepository['updateBusiness']>[1] = { profile: applied.profile };
  if (applied.paymentKey === null) fields.payment_key_sealed = undefined;
  if (typeof applied.paymentKey === 'string')
    fields.payment_key_sealed = await secretBox.seal(applied.paymentKey, paymentKeyContext(businessId));
  return fields;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** GET/PATCH /business and the bookings calendar (API-key and secret-feed forms). */
export class BusinessService {
  constructor(private readonly deps: BusinessServiceDeps) {}

  private view(business: Business): BusinessView {
    return toBusinessView(business.profile, {
      paymentKeySet: business.payment_key_sealed !== undefined,
      calendarFeed: business.calendar_feed_hash !== undefined,
    });
  }

  /** GET /business. */
  async get(businessId: number): Promise<BusinessView> {
    return this.view(await this.deps.businesses.getBusiness(businessId));
  }

  /**
   * PATCH /business (and `admin set-profile`): validates, merges into the stored profile and
   * writes it; a new payment key is sealed bound to the business, `null` removes it. Two PATCHes
   * at once: the last write wins for the whole profile.
   */
  async patch(businessId: number, body: unknown): Promise<BusinessView> {
    const [business, lines] = await Promise.all([
      this.deps.businesses.getBusiness(businessId),
      this.deps.catalog.listPhoneNumbers(businessId),
    ]);
    const applied = applyBusinessPatch(business.profile, body, lineRegions(lines), TEXTING_RULES);
    const fields = await profileUpdate(this.deps.secretBox, businessId, applied);
    return this.view(await this.deps.businesses.updateBusiness(businessId, fields));
  }

  /** Creates the secret feed, or rotates it (the old URL stops working at once); the token is shown only here. */
  async createCalendarFeed(businessId: number): Promise<{ token: string; path: string }> {
    const business = await this.deps.businesses.getBusiness(businessId);
    const token = `${FEED_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const replaced = await this.deps.calendarFeeds.replaceFeed(businessId, hashToken(token), business.calendar_feed_hash);
    if (!replaced) throw new ConflictError('conflict', 'The calendar feed changed meanwhile; try again.');
    return { token, path: calendarFeedPath(token) };
  }

  /** Revokes the secret feed (404 when there is none). */
  async revokeCalendarFeed(businessId: number): Promise<{ revoked: true }> {
    const business = await this.deps.businesses.getBusiness(businessId);
    await this.deps.calendarFeeds.removeFeed(businessId, business.calendar_feed_hash);
    return { revoked: true };
  }

  /** The business's bookings as iCalendar text (GET /bookings.ics). */
  async calendar(businessId: number): Promise<string> {
    const business = await this.deps.businesses.getBusiness(businessId);
    const nowMs = this.deps.now().getTime();
    const records = await this.deps.bookings.bookingsBetween(
      businessId,
      nowMs - CALENDAR_FEED_DAYS.past * DAY_MS,
      nowMs + CALENDAR_FEED_DAYS.future * DAY_MS,
    );
    return bookingsCalendar(records, {
      businessName: business.profile.display_name || business.name,
      uidDomain: this.deps.calendarUidDomain ?? DEFAULT_UID_DOMAIN,
    });
  }

  /** The calendar behind a secret feed token; NotFoundError for a malformed, unknown or revoked token. */
  async calendarForToken(token: string): Promise<string> {
    const businessId = FEED_TOKEN_PATTERN.test(token) ? await this.deps.calendarFeeds.findFeed(hashToken(token)) : undefined;
    if (businessId === undefined) throw new NotFoundError('No such calendar feed.');
    return this.calendar(businessId);
  }
}
