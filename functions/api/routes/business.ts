import { Hono } from 'hono';
import type { BusinessService } from '../../../shared/services/business-service';
import { readJsonBody } from '../body';
import type { ApiEnv } from '../env';

/** /business: the profile the assistants use, and the secret calendar feed's create/rotate and revoke. */
export function businessRoutes(service: BusinessService) {
  return new Hono<ApiEnv>()
    .get('/', async (c) => c.json(await service.get(c.get('businessId'))))
    .patch('/', async (c) => c.json(await service.patch(c.get('businessId'), await readJsonBody(c, undefined))))
    .post('/calendar-feed', async (c) => c.json(await service.createCalendarFeed(c.get('businessId'))))
    .delete('/calendar-feed', async (c) => c.json(await service.revokeCalendarFeed(c.get('businessId'))));
}
