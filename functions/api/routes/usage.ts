import { Hono } from 'hono';
import type { CallService } from '../../../shared/services/call-service';
import type { ApiEnv } from '../env';

/** /usage: the business's minutes, live calls, concurrency cap and queued calls, read now. */
export function usageRoutes(calls: CallService) {
  return new Hono<ApiEnv>().get('/', async (c) => c.json(await calls.usage(c.get('businessId'))));
}
