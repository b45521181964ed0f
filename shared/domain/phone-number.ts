import * as v from 'valibot';
import { idField, strictDict, stringField, timestampField } from './validation';
import { parseWith } from './validation-errors';
import { cursorPageSchema } from './paging';

/**
 * Strict E.164: `+`, a non-zero country-code digit, at most 15 digits in all. A bad number is a
 * `string_pattern_mismatch` item whose `ctx.pattern` is this pattern's source.
 */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;

/** Where a number's calls go: Twilio, or the local sandbox carrier (docs/design.md "The local stack"). */
export const PHONE_PROVIDERS = ['twilio', 'sandbox'] as const;

/** A phone-number provider. */
export type PhoneProvider = (typeof PHONE_PROVIDERS)[number];

/** A phone number in E.164 form. */
export function e164Field() {
  return v.pipe(stringField({ pattern: E164_PATTERN }), v.metadata({ examples: ['+15550100001'] }));
}

/** A business's phone number (docs/design.md "Resources"); `assistant_id` answers its inbound calls. */
export const PhoneNumberSchema = strictDict({
  id: idField(),
  number: e164Field(),
  label: v.string(),
  provider: v.picklist(PHONE_PROVIDERS),
  assistant_id: v.nullable(idField()),
  created_at: timestampField(),
});

/** A phone number as the API returns it. */
export type PhoneNumber = v.InferOutput<typeof PhoneNumberSchema>;

/** GET /phone-numbers: newest first (docs/design.md "Response shapes"). */
export const PhoneNumberListSchema = cursorPageSchema(PhoneNumberSchema);

/**
 * The ops `add-number` input. Sandbox is the default provider, so a number added without
 * thinking never reaches the real phone network.
 */
export const AddPhoneNumberInputSchema = strictDict({
  number: e164Field(),
  label: v.optional(stringField({ max: 120 }), ''),
  provider: v.optional(v.picklist(PHONE_PROVIDERS), 'sandbox'),
  assistant_id: v.optional(v.nullable(idField()), null),
});

/** A validated `add-number` input with its defaults. */
export type AddPhoneNumberInput = v.InferOutput<typeof AddPhoneNumberInputSchema>;

/** Validates an `add-number` input; 422-style items under `loc` (the CLI prints them). */
export function parseAddPhoneNumberInput(input: unknown, loc: (string | number)[] = []): AddPhoneNumberInput {
  return parseWith(AddPhoneNumberInputSchema, input, loc);
}
