import * as v from 'valibot';
import { WEBHOOK_EVENT_TYPES } from './event-types';
import { intField, listField, recordField, strictDict, stringField } from './validation';

/** AdvancedCfg `background` values (spec): ambient sound mixed under the assistant's voice. */
export const BACKGROUND_SOUNDS = ['off', 'office'] as const;

/** AdvancedCfg `interruptions` values (spec): when the caller may barge in. */
export const INTERRUPTION_MODES = ['anytime', 'after_greeting', 'never'] as const;

/** AdvancedCfg `redact` values (spec): what is masked in stored transcripts, summaries and webhooks. */
export const REDACT_KINDS = ['card', 'ssn', 'email', 'phone', 'dob'] as const;

/** AdvancedCfg `server_events` values (spec): the webhook kinds a business may subscribe to, under the spec's name. */
export const SERVER_EVENT_KINDS = WEBHOOK_EVENT_TYPES;

/** A waiver value: text or an integer (spec: "string or integer"). */
const WaiverValueSchema = v.union([stringField({ max: 500, lines: true }), intField()]);

/** Call handling, privacy and webhook settings (spec AdvancedCfg). */
export const AdvancedCfgSchema = strictDict({
  max_duration_s: v.optional(intField({ ge: 30, le: 3600 }), 600),
  silence_timeout_s: v.optional(intField({ ge: 5, le: 120 }), 12),
  idle_messages: v.optional(listField(stringField({ max: 300, lines: true }), 5), []),
  idle_max: v.optional(intField({ ge: 1, le: 5 }), 2),
  end_call_message: v.optional(stringField({ max: 300, lines: true }), ''),
  end_call_phrases: v.optional(listField(stringField({ max: 100 }), 20), []),
  recording: v.optional(v.boolean(), true),
  recording_notice: v.optional(v.boolean(), true),
  ai_disclosure: v.optional(v.boolean(), true),
  waivers: v.optional(
    v.pipe(
      recordField(recordField(WaiverValueSchema, 20), 20),
      v.metadata({
        description: 'Reserved: stored and returned exactly as sent, with no behaviour yet (docs/design.md "What happens on a call").',
      }),
    ),
    {},
  ),
  interrupt_min_words: v.optional(intField({ ge: 1, le: 5 }), 1),
  background: v.optional(v.picklist(BACKGROUND_SOUNDS), 'off'),
  voicemail_detection: v.optional(v.boolean(), true),
  voicemail_message: v.optional(stringField({ max: 600, lines: true }), ''),
  server_url: v.optional(stringField({ max: 500 }), ''),
  hipaa: v.optional(v.boolean(), false),
  memory: v.optional(v.boolean(), true),
  safety_fallback: v.optional(v.boolean(), true),
  fillers: v.optional(v.boolean(), true),
  interruptions: v.optional(v.picklist(INTERRUPTION_MODES), 'anytime'),
  greeting_delay_ms: v.optional(intField({ ge: 0, le: 3000 }), 0),
  greet_after_silence_s: v.optional(intField({ ge: 0, le: 15 }), 0),
  keypad: v.optional(v.boolean(), true),
  redact: v.optional(listField(v.picklist(REDACT_KINDS), 5), []),
  keep_days: v.optional(
    v.pipe(
      intField({ ge: 0, le: 3650 }),
      v.metadata({
        description:
          "Days after a call ends that its record, transcript and recording are deleted (the call's `expires_at`); 0 keeps them.",
      }),
    ),
    0,
  ),
  server_events: v.optional(listField(v.picklist(SERVER_EVENT_KINDS), SERVER_EVENT_KINDS.length), []),
});
