import * as v from 'valibot';
import { intField, strictDict } from './validation';

/**
 * GET /usage: the business's plan and load right now. `minutes_remaining` is the balance not yet
 * charged; `minutes_reserved` of it is held by calls that are connecting or in progress, so a new
 * call can reserve at most `minutes_remaining − minutes_reserved`.
 */
export const UsageSchema = strictDict({
  minutes_remaining: intField({ ge: 0 }),
  minutes_reserved: intField({ ge: 0 }),
  live_calls: intField({ ge: 0 }),
  max_concurrent_calls: intField({ ge: 0 }),
  queued_calls: intField({ ge: 0 }),
});

export type Usage = v.InferOutput<typeof UsageSchema>;
