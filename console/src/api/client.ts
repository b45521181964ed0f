import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';
import { forgetKey, storedKey } from '../session';

export type Schemas = components['schemas'];

/** An error body as every non-422 error of the API has it. */
export interface ApiError {
  status: number;
  code: string;
  message: string;
  /** 422 only: each problem at its field (`loc` as the API gives it, e.g. ["body", "config", "voice", "speed"]). */
  details: { loc: (string | number)[]; msg: string; type?: string }[];
}

/** Where the API is: `/config.json` when the console is hosted apart from it (the CDK app writes one), else this origin. */
async function apiBaseUrl(): Promise<string> {
  try {
    const response = await fetch('/config.json', { headers: { accept: 'application/json' } });
    if (response.ok && response.headers.get('content-type')?.includes('json')) {
      const config = (await response.json()) as { apiBaseUrl?: unknown };
      if (typeof config.apiBaseUrl === 'string') return config.apiBaseUrl.replace(/\/$/, '');
    }
  } catch {
    // No config: the API is on this origin.
  }
  return `${location.origin}/api/v1`;
}

const signedOut = new Set<() => void>();

/** Called when the API refuses the key (401): the console forgets it and shows the sign-in page. */
export function onSignedOut(listener: () => void): () => void {
  signedOut.add(listener);
  return () => signedOut.delete(listener);
}

const auth: Middleware = {
  onRequest({ request }) {
    const key = storedKey();
    if (key) request.headers.set('authorization', `Bearer ${key}`);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) {
      forgetKey();
      for (const listener of signedOut) listener();
    }
    return response;
  },
};

export const baseUrl = await apiBaseUrl();

/** The typed client: paths, bodies and answers come from our OpenAPI document (`npm run gen:console-api`). */
export const api = createClient<paths>({ baseUrl });
api.use(auth);

/**
 * The error an API answer carried, in one shape for the pages: a 422 is `{detail: [{loc, msg, type}]}`,
 * every other error `{code, detail}` (the OpenAPI document's `HTTPValidationError` and `ErrorBody`).
 */
export function apiError(status: number, body: unknown): ApiError {
  const data = (body ?? {}) as { code?: unknown; detail?: unknown };
  if (Array.isArray(data.detail)) {
    return { status, code: 'validation_error', message: 'Some fields need attention.', details: data.detail as ApiError['details'] };
  }
  return {
    status,
    code: typeof data.code === 'string' ? data.code : 'error',
    message: typeof data.detail === 'string' ? data.detail : `The API answered ${status}.`,
    details: [],
  };
}

/** Unwraps an openapi-fetch answer: the data, or an {@link ApiError} thrown. */
export function must<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) throw apiError(result.response.status, result.error);
  return result.data;
}
