import { Hono } from 'hono';
import { parseIdParam } from '../../../shared/domain/ids';
import type { MessageService } from '../../../shared/services/message-service';
import type { ApiEnv } from '../env';

/** /messages: what callers left with the assistants (take_message, notify_team), newest first. */
export function messageRoutes(service: MessageService) {
  return new Hono<ApiEnv>()
    .get('/', async (c) => c.json(await service.list(c.get('businessId'), c.req.query())))
    .get('/:message_id', async (c) => {
      const id = parseIdParam(c.req.param('message_id'), 'message_id');
      return c.json(await service.get(c.get('businessId'), id));
    });
}
