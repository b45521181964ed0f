import { Hono, type Context } from 'hono';
import { parseIdParam } from '../../../shared/domain/ids';
import { parseIfMatch } from '../../../shared/domain/entity-tag';
import type { AssistantService, TaggedAssistant } from '../../../shared/services/assistant-service';
import { MERGE_PATCH_MEDIA_TYPE, readJsonBody, requestMediaType } from '../body';
import type { ApiEnv } from '../env';
import { idempotent, type IdempotencyOptions } from '../middleware/idempotency';

/** What PATCH /assistants/{id} reads: the spec's full replacement, or an RFC 7396 merge patch. */
const PATCH_MEDIA_TYPES = ['application/json', MERGE_PATCH_MEDIA_TYPE] as const;

/** The assistant as JSON with its version tag in `ETag`, so a client can make its next write conditional. */
function withTag(c: Context<ApiEnv>, tagged: TaggedAssistant) {
  return c.json(tagged.assistant, 200, { etag: tagged.etag });
}

/** /assistants: list, create (template or full config), get, replace or merge-patch, delete (If-Match on both). */
export function assistantRoutes(service: AssistantService, idempotency: IdempotencyOptions) {
  return new Hono<ApiEnv>()
    .get('/', async (c) => c.json(await service.list(c.get('businessId'), c.req.query())))
    .post('/', idempotent(idempotency, 'POST /assistants'), async (c) => {
      const body = await readJsonBody(c, {});
      return withTag(c, await service.create(c.get('businessId'), body));
    })
    .get('/:assistant_id', async (c) => {
      const id = parseIdParam(c.req.param('assistant_id'), 'assistant_id');
      return withTag(c, await service.get(c.get('businessId'), id));
    })
    .patch('/:assistant_id', async (c) => {
      const id = parseIdParam(c.req.param('assistant_id'), 'assistant_id');
      const ifMatch = parseIfMatch(c.req.header('if-match'));
      const body = await readJsonBody(c, {}, PATCH_MEDIA_TYPES);
      const merge = requestMediaType(c) === MERGE_PATCH_MEDIA_TYPE;
      return withTag(c, await service.update(c.get('businessId'), id, body, { merge, ifMatch }));
    })
    .delete('/:assistant_id', async (c) => {
      const id = parseIdParam(c.req.param('assistant_id'), 'assistant_id');
      return c.json(await service.delete(c.get('businessId'), id, parseIfMatch(c.req.header('if-match'))));
    });
}
