import { Hono } from 'hono';
import type { PhoneNumberService } from '../../../shared/services/phone-number-service';
import type { ApiEnv } from '../env';

/** /phone-numbers: a read-only list (ops provision numbers with the admin command line); /tools has its own routes. */
export function catalogRoutes(phoneNumbers: PhoneNumberService) {
  return new Hono<ApiEnv>().get('/phone-numbers', async (c) => c.json(await phoneNumbers.list(c.get('businessId'), c.req.query())));
}
