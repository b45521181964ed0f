import { fill, type TourStep } from './doc-tour';

/**
 * Replays the steps `parseTour` read from a walkthrough (docs/api-tour.md) with `fetch`, and
 * says where an answer differs from what the document shows.
 */

/** Where an answer differs from the shape the document shows (empty: it matches). */
export function shapeErrors(expected: unknown, actual: unknown, path = '$'): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${JSON.stringify(actual)?.slice(0, 80)}`];
    return expected.flatMap((item, i) => (i < actual.length ? shapeErrors(item, actual[i], `${path}[${i}]`) : [`${path}[${i}]: missing`]));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return [`${path}: expected an object, got ${JSON.stringify(actual)?.slice(0, 80)}`];
    return Object.entries(expected).flatMap(([key, value]) =>
      Object.hasOwn(actual, key)
        ? shapeErrors(value, (actual as Record<string, unknown>)[key], `${path}.${key}`)
        : [`${path}.${key}: missing`],
    );
  }
  if (typeof expected === 'number') return typeof actual === 'number' ? [] : [`${path}: expected a number, got ${JSON.stringify(actual)}`];
  if (typeof expected === 'string') {
    const pattern = new RegExp(
      `^${expected
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      's',
    );
    return typeof actual === 'string' && pattern.test(actual)
      ? []
      : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
  }
  return actual === expected ? [] : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/**
 * What the API answers to a request it will not take as written. After `# tour: call` a 404 (the
 * call, booking or message a finished call would have made) or a 409 is fine; these are not.
 */
const MALFORMED = new Set([400, 401, 405, 413, 415, 422]);

/** What one replayed request gave. */
export interface StepResult {
  status: number;
  body: unknown;
  errors: string[];
}

/** Replays one step with `fetch`, keeps its capture in `vars`, and says where the answer differs from the document. */
export async function runStep(step: TourStep, vars: Record<string, string>): Promise<StepResult> {
  const headers = Object.fromEntries(step.headers.map(([name, value]) => [name, fill(value, vars)]));
  const response = await fetch(fill(step.url, vars), {
    method: fill(step.method, vars),
    headers,
    ...(step.body !== undefined && { body: fill(step.body, vars) }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (an iCalendar feed, an empty body): compared as text, if at all
  }
  const errors: string[] = [];
  const wanted = step.expect?.status;
  if (
    step.statusOnly
      ? MALFORMED.has(response.status) || response.status >= 500
      : wanted !== undefined
        ? response.status !== wanted
        : response.status >= 300
  )
    errors.push(`status ${response.status}${wanted !== undefined ? `, expected ${wanted}` : ''}: ${text.slice(0, 300)}`);
  if (!step.statusOnly && step.expect?.body !== undefined) errors.push(...shapeErrors(step.expect.body, body));
  if (step.capture?.from === 'id') {
    const id = (body as { id?: unknown } | null)?.id;
    if (typeof id !== 'number') errors.push(`no numeric id to keep in $${step.capture.name}`);
    else vars[step.capture.name] = String(id);
  }
  if (step.capture?.from === 'header') {
    const value = response.headers.get(step.capture.header);
    if (value === null) errors.push(`no ${step.capture.header} header to keep in $${step.capture.name}`);
    else vars[step.capture.name] = value;
  }
  return { status: response.status, body, errors };
}
