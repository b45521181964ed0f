import { randomBytes } from 'node:crypto';
import { displayPrefix, generateApiKey, hashApiKey, type KeyEnvironment } from '../auth/api-key';
import type { AssistantRepository } from '../db/assistant-repository';
import type { Business, BusinessRepository } from '../db/business-repository';
import type { CatalogRepository } from '../db/catalog-repository';
import type { DeliveryRepository } from '../db/delivery-repository';
import type { IdAllocator } from '../db/ids';
import { defaultBusinessProfile } from '../domain/business-profile';
import { applyBusinessPatch } from '../domain/business-settings';
import { lineRegions, TEXTING_RULES } from '../phone/texting';
import { MAX_QUOTA, QUOTA_NAMES, type Quotas } from '../domain/quota';
import type { QuotaRepository } from '../db/quotas';
import type { PhoneNumber } from '../domain/phone-number';
import { AppError, NotFoundError, ValidationError } from '../errors';
import type { SecretBox } from '../security/secret-box';
import { generateWebhookSecret } from '../webhooks/secret';
import { profileUpdate } from './business-service';
import type { UrlPolicy } from '../security/ssrf';
import type { ToolService } from './tool-service';

/** What the ops use cases need. */
export interface AdminDeps {
  businesses: BusinessRepository;
  assistants: AssistantRepository;
  catalog: CatalogRepository;
  ids: IdAllocator;
  secretBox: SecretBox;
  urlPolicy: UrlPolicy;
  keyEnvironment: KeyEnvironment;
  now: () => Date;
  /** `add-tool` writes through the API's own tool use cases. */
  tools: ToolService;
  /** For `deliveries` (webhook attempts). */
  deliveries?: DeliveryRepository;
  /** For `set-quota`. */
  quotas?: QuotaRepository;
}

/** A bad ops command argument (the CLI prints it as JSON and exits non-zero). */
export class AdminInputError extends AppError {
  constructor(message: string) {
    super('invalid_argument', 400, message);
    this.name = 'AdminInputError';
  }
}

/** The set-quota flags, for messages. */
const QUOTA_FLAGS = QUOTA_NAMES.map((name) => `--${name.replace('_', '-')}`).join(', ');

/** Minutes a new business gets when ops do not say (enough for a trial of the sandbox). */
export const DEFAULT_STARTING_MINUTES = 100;

/** Sealing context for a business's webhook signing secret. */
export function webhookSecretContext(businessId: number): Record<string, string> {
  return { business_id: String(businessId), purpose: 'webhook_secret' };
}

/** Ops use cases behind `npm run admin`: businesses, keys, numbers, tools, minutes, quotas, profile. */
export class AdminService {
  constructor(private readonly deps: AdminDeps) {}

  /** A new business with its first API key and webhook secret (both shown only here, once). */
  async createBusiness(name: string, minutes = DEFAULT_STARTING_MINUTES) {
    if (name.trim() === '' || name.length > 120) throw new AdminInputError('--name must be 1 to 120 characters.');
    if (!Number.isInteger(minutes) || minutes < 0) throw new AdminInputError('--minutes must be a whole number ≥ 0.');
    const id = await this.deps.ids.nextId();
    const webhookSecret = generateWebhookSecret(randomBytes);
    const business: Business = {
      id,
      name,
      created_at: this.deps.now().toISOString(),
      minutes_balance: minutes,
      minutes_reserved: 0,
      max_concurrent_calls: 10,
      profile: { ...defaultBusinessProfile(), display_name: name },
      webhook_secret_sealed: await this.deps.secretBox.seal(webhookSecret, webhookSecretContext(id)),
    };
    await this.deps.businesses.putBusiness(business);
    const { api_key } = await this.createKey(id);
    return { business_id: id, api_key, webhook_secret: webhookSecret };
  }

  /** Another API key for the business (rotation: several keys may be active). */
  async createKey(businessId: number) {
    await this.deps.businesses.getBusiness(businessId);
    const key = generateApiKey(this.deps.keyEnvironment);
    await this.deps.businesses.putApiKey({
      business_id: businessId,
      key_hash: hashApiKey(key),
      prefix: displayPrefix(key),
      created_at: this.deps.now().toISOString(),
      revoked_at: null,
    });
    return { api_key: key };
  }

  /** Revokes every active key of the business whose display prefix starts with `prefix`. */
  async revokeKey(businessId: number, prefix: string) {
    if (prefix.length < 8) throw new AdminInputError('--key-prefix must be at least 8 characters (e.g. vk_test_abcd).');
    const keys = await this.deps.businesses.listApiKeys(businessId);
    const matching = keys.filter((key) => key.revoked_at === null && (key.prefix.startsWith(prefix) || prefix.startsWith(key.prefix)));
    if (matching.length === 0) throw new NotFoundError(`No active key of business ${businessId} starts with ${prefix}.`);
    if (matching.length > 1) throw new AdminInputError(`${matching.length} keys start with ${prefix}; give a longer prefix.`);
    await this.deps.businesses.revokeApiKey(businessId, matching[0]!.key_hash, this.deps.now().toISOString());
    return { business_id: businessId, revoked: matching[0]!.prefix };
  }

  /** Assigns a phone number to the business (and optionally to an assistant for inbound calls). */
  async addNumber(
    businessId: number,
    input: { number: string; provider: 'twilio' | 'sandbox'; assistantId: number | null; label: string },
  ) {
    if (!/^\+[1-9]\d{1,14}$/.test(input.number)) throw new AdminInputError('--number must be E.164, e.g. +15550100001.');
    await this.deps.businesses.getBusiness(businessId);
    if (input.assistantId !== null) await this.deps.assistants.getAssistant(businessId, input.assistantId);
    const record: PhoneNumber = {
      id: await this.deps.ids.nextId(),
      number: input.number,
      label: input.label,
      provider: input.provider,
      assistant_id: input.assistantId,
      created_at: this.deps.now().toISOString(),
    };
    await this.deps.catalog.insertPhoneNumber(businessId, record);
    return record;
  }

  /**
   * Registers a custom tool the business's assistants may call on its server: the same record and
   * checks as `POST /tools` (a 422-style error lists the fields, `loc` without the `body` prefix).
   */
  async addTool(businessId: number, input: unknown) {
    await this.deps.businesses.getBusiness(businessId);
    return this.deps.tools.create(businessId, input, []);
  }

  /** Sets the plan's minutes balance. */
  async setMinutes(businessId: number, minutes: number) {
    if (!Number.isInteger(minutes) || minutes < 0) throw new AdminInputError('--minutes must be a whole number ≥ 0.');
    const business = await this.deps.businesses.updateBusiness(businessId, { minutes_balance: minutes });
    return { business_id: businessId, minutes_balance: business.minutes_balance, minutes_reserved: business.minutes_reserved };
  }

  /** Sets the concurrent-call cap of the plan. */
  async setMaxConcurrentCalls(businessId: number, max: number) {
    if (!Number.isInteger(max) || max < 1 || max > 1000) throw new AdminInputError('--max must be 1 to 1000.');
    const business = await this.deps.businesses.updateBusiness(businessId, { max_concurrent_calls: max });
    return { business_id: businessId, max_concurrent_calls: business.max_concurrent_calls };
  }

  /**
   * Sets some of the business's quotas (docs/decisions.md "Quotas"); the others keep theirs. A quota
   * below what the business holds refuses new creates until it is back under; nothing is deleted.
   * Returns every quota with what the business holds of each.
   */
  async setQuota(businessId: number, changes: Partial<Quotas>) {
    if (!this.deps.quotas) throw new AdminInputError('Quotas are not available here.');
    const given = QUOTA_NAMES.filter((name) => changes[name] !== undefined);
    if (given.length === 0) throw new AdminInputError(`Give at least one quota to set: ${QUOTA_FLAGS}.`);
    for (const name of given) {
      const value = changes[name]!;
      if (!Number.isInteger(value) || value < 0 || value > MAX_QUOTA)
        throw new AdminInputError(`--${name.replace('_', '-')} must be a whole number from 0 to ${MAX_QUOTA}.`);
    }
    await this.deps.businesses.getBusiness(businessId);
    const quotas = await this.deps.quotas.setQuotas(businessId, changes);
    return { business_id: businessId, quotas, held: await this.deps.quotas.usage(businessId) };
  }

  /**
   * Webhook delivery attempts, for ops: one call's, or the business's most recent (newest first).
   * Every attempt carries time, HTTP status, latency and error.
   */
  async deliveries(businessId: number, callId: number | null, limit = 100) {
    if (!this.deps.deliveries) throw new AdminInputError('Deliveries are not available here.');
    await this.deps.businesses.getBusiness(businessId);
    const records =
      callId === null
        ? await this.deps.deliveries.listDeliveryRecordsForBusiness(businessId)
        : await this.deps.deliveries.listDeliveryRecords(businessId, callId);
    const sorted = records.sort((a, b) => b.occurred_at.localeCompare(a.occurred_at)).slice(0, limit);
    return {
      business_id: businessId,
      deliveries: sorted.map((record) => ({
        call_id: record.call_id,
        webhook_id: record.webhook_id,
        event_type: record.event_type,
        url: record.url,
        state: record.state,
        next_attempt_at: record.next_attempt_at,
        attempts: record.attempts,
      })),
    };
  }

  /**
   * Updates the business profile with a PATCH /business body (the same validation and merge; the
   * rest is kept). A payment key in it is sealed as the API seals it.
   */
  async setProfile(businessId: number, patch: Record<string, unknown>) {
    const [business, lines] = await Promise.all([
      this.deps.businesses.getBusiness(businessId),
      this.deps.catalog.listPhoneNumbers(businessId),
    ]);
    let applied: ReturnType<typeof applyBusinessPatch>;
    try {
      applied = applyBusinessPatch(business.profile, patch, lineRegions(lines), TEXTING_RULES);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new AdminInputError(error.items.map((item) => `${item.loc.slice(1).join('.')}: ${item.msg}`).join('; '));
    }
    await this.deps.businesses.updateBusiness(businessId, await profileUpdate(this.deps.secretBox, businessId, applied));
    return { business_id: businessId, profile: applied.profile };
  }
}
