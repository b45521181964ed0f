import { OPENAI_STT_MODELS } from '../../../shared/domain/speech-catalog';

/**
 * The models the sandbox OpenAI lists (`GET /v1/models`) and serves: the chat, realtime,
 * transcription and embedding models this platform names. A model object is `{id, object:
 * 'model', created, owned_by}` as OpenAI returns it; the list is `{object: 'list', data}`.
 */

/** When the sandbox says its models were created (fixed, so answers are deterministic): 2025-01-01. */
const CREATED = 1_735_689_600;

/** Every model id the sandbox lists. */
export const SANDBOX_OPENAI_MODELS: readonly string[] = [
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4o-mini',
  'gpt-5-mini',
  'gpt-realtime',
  ...OPENAI_STT_MODELS,
  'gpt-4o-transcribe-diarize',
  'text-embedding-3-small',
  'text-embedding-3-large',
];

/** Transcription models `POST /v1/audio/transcriptions` takes. */
export const SANDBOX_TRANSCRIPTION_MODELS: readonly string[] = [...OPENAI_STT_MODELS, 'gpt-4o-transcribe-diarize'];

/** One model object. */
export function modelObject(id: string): Record<string, unknown> {
  return { id, object: 'model', created: CREATED, owned_by: id.startsWith('whisper') ? 'openai-internal' : 'system' };
}

/** `GET /v1/models` → 200 list; `GET /v1/models/{id}` → the model, or OpenAI's 404 `model_not_found`. */
export function modelsAnswer(pathname: string): { status: number; body: unknown } | undefined {
  if (pathname === '/v1/models') return { status: 200, body: { object: 'list', data: SANDBOX_OPENAI_MODELS.map(modelObject) } };
  const id = /^\/v1\/models\/(.+)$/.exec(pathname)?.[1];
  if (id === undefined) return undefined;
  const model = decodeURIComponent(id);
  if (SANDBOX_OPENAI_MODELS.includes(model)) return { status: 200, body: modelObject(model) };
  const message = `The model '${model.slice(0, 100)}' does not exist`;
  return { status: 404, body: { error: { message, type: 'invalid_request_error', param: 'model', code: 'model_not_found' } } };
}
