import { Hono } from 'hono';
import { parseIdParam } from '../../../shared/domain/ids';
import type { CallService } from '../../../shared/services/call-service';
import type { WebCallService } from '../../../shared/services/web-call-service';
import type { LiveCallService } from '../../../shared/services/live-call-service';
import { readJsonBody } from '../body';
import type { ApiEnv } from '../env';

/** /calls: start an outbound call or a web call, list calls, read one call with transcript and metrics, listen to a live one or end it. */
export function callRoutes(service: CallService, webCalls: WebCallService, liveCalls: LiveCallService) {
  return new Hono<ApiEnv>()
    .get('/', async (c) => c.json(await service.list(c.get('businessId'), c.req.query())))
    .post('/', async (c) => {
      const body = await readJsonBody(c, undefined);
      return c.json(await service.create(c.get('businessId'), body, c.req.header('idempotency-key')));
    })
    .post('/web', async (c) => {
      const body = await readJsonBody(c, undefined);
      const created = await webCalls.create(c.get('businessId'), body, c.req.header('idempotency-key'));
      // The answer holds a call's credential: no cache on the way may keep it.
      c.header('Cache-Control', 'no-store');
      return c.json(created);
    })
    .get('/:call_id', async (c) => {
      const id = parseIdParam(c.req.param('call_id'), 'call_id');
      return c.json(await service.get(c.get('businessId'), id));
    })
    .post('/:call_id/listen', async (c) => {
      const id = parseIdParam(c.req.param('call_id'), 'call_id');
      return c.json(await liveCalls.listen(c.get('businessId'), id));
    })
    .post('/:call_id/end', async (c) => {
      const id = parseIdParam(c.req.param('call_id'), 'call_id');
      return c.json(await liveCalls.end(c.get('businessId'), id), 202);
    });
}
