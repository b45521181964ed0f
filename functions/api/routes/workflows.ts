import { Hono } from 'hono';
import { parseIdParam } from '../../../shared/domain/ids';
import type { WorkflowService } from '../../../shared/services/workflow-service';
import { readJsonBody } from '../body';
import type { ApiEnv } from '../env';
import { idempotent, type IdempotencyOptions } from '../middleware/idempotency';

/** /workflows: the business's workflows (docs/design.md "Workflows"): list, create, get, update, delete. */
export function workflowRoutes(service: WorkflowService, idempotency: IdempotencyOptions) {
  return new Hono<ApiEnv>()
    .get('/', async (c) => c.json(await service.list(c.get('businessId'), c.req.query())))
    .post('/', idempotent(idempotency, 'POST /workflows'), async (c) =>
      c.json(await service.create(c.get('businessId'), await readJsonBody(c, undefined))),
    )
    .get('/:workflow_id', async (c) => {
      const id = parseIdParam(c.req.param('workflow_id'), 'workflow_id');
      return c.json(await service.get(c.get('businessId'), id));
    })
    .patch('/:workflow_id', async (c) => {
      const id = parseIdParam(c.req.param('workflow_id'), 'workflow_id');
      return c.json(await service.update(c.get('businessId'), id, await readJsonBody(c, {})));
    })
    .delete('/:workflow_id', async (c) => {
      const id = parseIdParam(c.req.param('workflow_id'), 'workflow_id');
      return c.json(await service.delete(c.get('businessId'), id));
    });
}
