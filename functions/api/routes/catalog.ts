import { Hono } from 'hono';
import type { CatalogRepository } from '../../../shared/db/catalog-repository';
import type { ApiEnv } from '../env';

function newestFirst<T extends { id: number; created_at: string }>(items: T[]): T[] {
  return items.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}

/** /phone-numbers: a read-only list (ops provision numbers with the admin command line); /tools has its own routes. */
export function catalogRoutes(catalog: CatalogRepository) {
  return new Hono<ApiEnv>().get('/phone-numbers', async (c) =>
    c.json({ data: newestFirst(await catalog.listPhoneNumbers(c.get('businessId'))) }),
  );
}
