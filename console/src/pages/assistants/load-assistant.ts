import { api, must, type Schemas } from '../../api/client';

/** An assistant with its version tag (the `ETag` of the answer), for a conditional save or delete. */
export interface TaggedAssistant {
  assistant: Schemas['Assistant'];
  /** Undefined when the answer had no ETag (the write is then unconditional). */
  etag: string | undefined;
}

/** GET /assistants/{id}, keeping the ETag. */
export async function loadAssistant(id: number): Promise<TaggedAssistant> {
  const result = await api.GET('/assistants/{assistant_id}', { params: { path: { assistant_id: id } } });
  return { assistant: must(result), etag: result.response.headers.get('etag') ?? undefined };
}
