import * as v from 'valibot';
import { CallEventDetailSchema, EVENT_TYPES } from '../../shared/events/catalog';

/**
 * What a call-engine child process (MEDIA_TASKS > 1) tells `npm run dev` over its IPC channel:
 * it is listening (`ready`), a call's session started here (`session`), and the call events it
 * publishes (`events`), which the parent hands to the after-call pipeline's event router, as
 * EventBridge would. The parent tells a child nothing: SIGTERM drains it, and a closed channel (the
 * parent is gone) ends it.
 */
export const MediaTaskMessageSchema = v.variant('type', [
  v.object({ type: v.literal('ready'), port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65_535)) }),
  v.object({ type: v.literal('session'), call_id: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  v.object({
    type: v.literal('events'),
    events: v.pipe(v.array(v.object({ type: v.picklist(EVENT_TYPES), detail: CallEventDetailSchema })), v.maxLength(100)),
  }),
]);

export type MediaTaskMessage = v.InferOutput<typeof MediaTaskMessageSchema>;

/**
 * The child's environment beyond the media service's own (`localMediaEnv`): where the sandbox
 * servers run (in the parent, shared by every child) is passed in the standard
 * DEEPGRAM_BASE_URL, OPENAI_BASE_URL, TWILIO_BASE_URL and STRIPE_API_URL; this names the child in its log lines.
 */
export const MEDIA_TASK_NUMBER = 'MEDIA_TASK_NUMBER';

/** A child's session heartbeat in ms, when a test shortens it (unset: the engine's default, 30 s). */
export const LOCAL_HEARTBEAT_MS = 'LOCAL_HEARTBEAT_MS';
