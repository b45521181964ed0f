import { Hono } from 'hono';
import { parseIdParam } from '../../../shared/domain/call';
import type { AssistantService } from '../../../shared/services/assistant-service';
import { readJsonBody } from '../body';
import type { ApiEnv } from '../env';

/** /assistants: list, create (template or full config), get, replace, delete. */
export function assistantRoutes(service: AssistantService) {
  return new Hono<ApiEnv>()
    .get('/', async (c) => c.json(await service.list(c.get('businessId'), c.req.query())))
    .post('/', async (c) => {
      const body = await readJsonBody(c, {});
      return c.json(await service.create(c.get('businessId'), body));
    })
    .get('/:assistant_id', async (c) => {
      const id = parseIdParam(c.req.param('assistant_id'), 'assistant_id');
      return c.json(await service.get(c.get('businessId'), id));
    })
    .patch('/:assistant_id', async (c) => {
      const id = parseIdParam(c.req.param('assistant_id'), 'assistant_id');
      const body = await readJsonBody(c, {});
      return c.json(await service.update(c.get('businessId'), id, body));
    })
    .delete('/:assistant_id', async (c) => {
      const id = parseIdParam(c.req.param('assistant_id'), 'assistant_id');
      return c.json(await service.delete(c.get('businessId'), id));
    });
}
