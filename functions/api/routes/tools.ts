import { Hono } from 'hono';
import { parseIdParam } from '../../../shared/domain/ids';
import type { ToolService } from '../../../shared/services/tool-service';
import { readJsonBody } from '../body';
import type { ApiEnv } from '../env';
import { idempotent, type IdempotencyOptions } from '../middleware/idempotency';

/** /tools: the business's custom tools (docs/design.md "Custom tools"): list, create, get, update, delete. */
export function toolRoutes(service: ToolService, idempotency: IdempotencyOptions) {
  return new Hono<ApiEnv>()
    .get('/', async (c) => c.json(await service.list(c.get('businessId'), c.req.query())))
    .post('/', idempotent(idempotency, 'POST /tools'), async (c) =>
      c.json(await service.create(c.get('businessId'), await readJsonBody(c, undefined))),
    )
    .get('/:tool_id', async (c) => {
      const id = parseIdParam(c.req.param('tool_id'), 'tool_id');
      return c.json(await service.get(c.get('businessId'), id));
    })
    .patch('/:tool_id', async (c) => {
      const id = parseIdParam(c.req.param('tool_id'), 'tool_id');
      return c.json(await service.update(c.get('businessId'), id, await readJsonBody(c, {})));
    })
    .delete('/:tool_id', async (c) => {
      const id = parseIdParam(c.req.param('tool_id'), 'tool_id');
      return c.json(await service.delete(c.get('businessId'), id));
    });
}
