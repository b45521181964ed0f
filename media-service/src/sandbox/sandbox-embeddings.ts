import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { apiKeyRefusal } from './openai-auth';

/** Default vector sizes by model (the `dimensions` request field shortens them). */
const MODEL_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};
/**
 * OpenAI's limits on one request: 2,048 inputs, 8,191 tokens an input, 300,000 tokens in all.
 * Tokens are counted here as UTF-8 bytes, the most a byte-level BPE can make of a text (a token
 * is at least one byte), so what this stand-in accepts OpenAI accepts too; it refuses some texts
 * OpenAI would take (English is ~4 bytes a token), never the other way round.
 */
const MAX_INPUTS = 2048;
const MAX_INPUT_TOKENS = 8191;
const MAX_REQUEST_TOKENS = 300_000;

/** The stand-in's token count of an input (see above: an upper bound of tiktoken's). */
const tokensOf = (input: string) => Buffer.byteLength(input, 'utf8');

/** Lower-case words (letters/digits), with a crude plural/verb suffix cut so "hours" and "hour" meet. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) =>
    word.length > 4 ? word.replace(/(ing|ies|es|ed|s)$/u, '') : word,
  );
}

function bucket(feature: string, dimensions: number): { index: number; sign: number } {
  const digest = createHash('sha1').update(feature).digest();
  return { index: digest.readUInt32LE(0) % dimensions, sign: (digest[4]! & 1) === 0 ? 1 : -1 };
}

/**
 * A deterministic stand-in embedding: hashed word and character-trigram features, L2-normalised,
 * so texts that share words (or word stems) are close and unrelated texts are near orthogonal.
 */
export function sandboxEmbedding(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of words(text)) {
    const whole = bucket(`w:${word}`, dimensions);
    vector[whole.index]! += 2 * whole.sign;
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const gram = bucket(`g:${padded.slice(i, i + 3)}`, dimensions);
      vector[gram.index]! += 0.5 * gram.sign;
    }
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dimensions; i++) vector[i]! /= norm;
  return vector;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': `req_${randomUUID()}` };
  if (status >= 400 && status < 500) headers['x-should-retry'] = 'false';
  res.writeHead(status, headers).end(JSON.stringify(body));
}

function fail(res: ServerResponse, status: number, message: string, param: string | null = null, type = 'invalid_request_error'): void {
  sendJson(res, status, { error: { message, type, param, code: type === 'invalid_request_error' ? null : type } });
}

/**
 * `POST /v1/embeddings` of the sandbox OpenAI (docs/protocols.md): string or string[] input,
 * `dimensions`, and both encodings (base64 little-endian float32, the SDK's default, or float).
 */
export function handleEmbeddings(req: IncomingMessage, res: ServerResponse, text: string, apiKey: string): void {
  const refused = apiKeyRefusal(req.headers.authorization, apiKey);
  if (refused) return sendJson(res, refused.status, refused.body);
  let body: { input?: unknown; model?: unknown; dimensions?: unknown; encoding_format?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return fail(res, 400, 'We could not parse the JSON body of your request.');
  }
  if (typeof body !== 'object' || body === null) return fail(res, 400, 'The body must be a JSON object.');
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(inputs) || inputs.length === 0 || inputs.length > MAX_INPUTS)
    return fail(res, 400, `'input' must be a string or 1-${MAX_INPUTS} strings.`, 'input');
  if (inputs.some((input) => typeof input !== 'string' || input.length === 0))
    return fail(res, 400, "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", 'input');
  const longest = Math.max(...(inputs as string[]).map(tokensOf));
  if (longest > MAX_INPUT_TOKENS)
    return fail(
      res,
      400,
      `This model's maximum context length is ${MAX_INPUT_TOKENS} tokens, however you requested ${longest} tokens (${longest} in your prompt; 0 for the completion). Please reduce your prompt; or completion length.`,
    );
  const requested = (inputs as string[]).reduce((sum, input) => sum + tokensOf(input), 0);
  if (requested > MAX_REQUEST_TOKENS)
    return fail(res, 400, `Requested ${requested} tokens, max ${MAX_REQUEST_TOKENS} tokens per request`, null, 'max_tokens_per_request');
  const model = typeof body.model === 'string' ? body.model : '';
  if (model === '') return fail(res, 400, "'model' is required.", 'model');
  const dimensions = body.dimensions ?? MODEL_DIMENSIONS[model] ?? 1536;
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 3072)
    return fail(res, 400, "'dimensions' must be a whole number from 1 to 3072.", 'dimensions');
  const encoding = body.encoding_format ?? 'float';
  if (encoding !== 'float' && encoding !== 'base64') return fail(res, 400, "'encoding_format' must be float or base64.", 'encoding_format');
  let tokens = 0;
  const data = (inputs as string[]).map((input, index) => {
    tokens += words(input).length;
    const vector = sandboxEmbedding(input, dimensions);
    const embedding =
      encoding === 'base64' ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') : [...vector];
    return { object: 'embedding', index, embedding };
  });
  sendJson(res, 200, { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}
