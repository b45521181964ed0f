import { Hono } from 'hono';
import { parseIdParam } from '../../../shared/domain/ids';
import type { KnowledgeService } from '../../../shared/services/knowledge-service';
import { readJsonBody } from '../body';
import type { ApiEnv } from '../env';
import { idempotent, type IdempotencyOptions } from '../middleware/idempotency';

/** /knowledge-bases: the business's knowledge bases, their documents, and search (docs/design.md "Knowledge bases"). */
export function knowledgeRoutes(service: KnowledgeService, idempotency: IdempotencyOptions) {
  const kb = (raw: string | undefined) => parseIdParam(raw ?? '', 'knowledge_base_id');
  const doc = (raw: string | undefined) => parseIdParam(raw ?? '', 'document_id');
  return new Hono<ApiEnv>()
    .get('/', async (c) => c.json(await service.list(c.get('businessId'), c.req.query())))
    .post('/', idempotent(idempotency, 'POST /knowledge-bases'), async (c) =>
      c.json(await service.create(c.get('businessId'), await readJsonBody(c, undefined))),
    )
    .get('/:kb', async (c) => c.json(await service.get(c.get('businessId'), kb(c.req.param('kb')))))
    .patch('/:kb', async (c) => {
      const id = kb(c.req.param('kb'));
      return c.json(await service.update(c.get('businessId'), id, await readJsonBody(c, {})));
    })
    .delete('/:kb', async (c) => c.json(await service.delete(c.get('businessId'), kb(c.req.param('kb')))))
    .get('/:kb/documents', async (c) => {
      const id = kb(c.req.param('kb'));
      return c.json(await service.listDocuments(c.get('businessId'), id, c.req.query()));
    })
    .post('/:kb/documents', idempotent(idempotency, 'POST /knowledge-bases/{id}/documents'), async (c) => {
      const id = kb(c.req.param('kb'));
      return c.json(await service.addDocument(c.get('businessId'), id, await readJsonBody(c, undefined)));
    })
    .get('/:kb/documents/:doc', async (c) => {
      const [id, docId] = [kb(c.req.param('kb')), doc(c.req.param('doc'))];
      return c.json(await service.getDocument(c.get('businessId'), id, docId));
    })
    .delete('/:kb/documents/:doc', async (c) => {
      const [id, docId] = [kb(c.req.param('kb')), doc(c.req.param('doc'))];
      return c.json(await service.deleteDocument(c.get('businessId'), id, docId));
    })
    .post('/:kb/search', async (c) => {
      const id = kb(c.req.param('kb'));
      return c.json(await service.search(c.get('businessId'), id, await readJsonBody(c, undefined)));
    });
}
