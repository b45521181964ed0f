import { BusinessRepository } from '../../shared/db/business-repository';
import type { Db } from '../../shared/db/client';
import type { BusinessProfile } from '../../shared/domain/business-profile';

/** Writes a business with `profile` straight to the table (the booking benches need only its profile). */
export async function seedBusiness(db: Db, businessId: number, profile: BusinessProfile, createdAt: Date): Promise<void> {
  await new BusinessRepository(db).putBusiness({
    id: businessId,
    name: 'Bench',
    created_at: createdAt.toISOString(),
    minutes_balance: 10,
    minutes_reserved: 0,
    max_concurrent_calls: 10,
    profile,
    webhook_secret_sealed: 'unused',
  });
}
