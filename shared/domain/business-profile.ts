/**
 * The business profile: facts about the business that ops set with `admin set-profile`.
 * Built-in tools use it (transfer, team messages), and prompts include it when an
 * assistant's `config.business_context` is true.
 */
export interface BusinessProfile {
  /** The name callers know the business by. */
  display_name: string;
  /** IANA time zone, e.g. `America/New_York`; times and opening hours are in this zone. */
  timezone: string;
  /** Opening hours in free text, e.g. `Mon-Fri 9am-5pm, Sat 10am-2pm`. */
  hours: string;
  /** Street address, as a caller would be told it. */
  address: string;
  /** E.164 number that the transfer tool connects callers to. */
  transfer_number: string;
  /** Where team messages are sent. */
  team_email: string;
}

/**
 * Each profile value is clipped to this many characters in the prompt. The profile has no
 * API bounds (ops set it), so clipping is what keeps a built prompt inside the 30000-char
 * `system_prompt` bound whatever the profile holds.
 */
export const PROFILE_FIELD_MAX_CHARS = 300;

/** A profile with every field unset (''), the state of a new business. */
export function emptyBusinessProfile(): BusinessProfile {
  return { display_name: '', timezone: '', hours: '', address: '', transfer_number: '', team_email: '' };
}

/** Collapses line breaks and runs of whitespace so a value reads as one line of the prompt. */
export function toOneLine(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '')
    .join('; ');
}

/** Cuts `text` to at most `max` characters, marking the cut with an ellipsis. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The business's name as the prompt should say it, or '' when the profile has none. */
export function businessName(profile: BusinessProfile | null): string {
  return profile === null ? '' : clipText(toOneLine(profile.display_name ?? ''), PROFILE_FIELD_MAX_CHARS);
}

/** Prompt lines in a fixed order: label, then what the assistant should do with the value. */
const PROFILE_LINES: ReadonlyArray<readonly [keyof BusinessProfile, string]> = [
  ['display_name', 'Name'],
  ['hours', 'Opening hours'],
  ['timezone', 'Time zone (opening hours and appointment times are in this zone)'],
  ['address', 'Address'],
  ['transfer_number', 'Team phone line (where transfers go; share it only if a caller asks how to reach the team)'],
  ['team_email', 'Team email (where messages for the team go)'],
];

/**
 * The prompt block that describes the business: one line per non-empty profile field under
 * an `# About the business` heading, or '' when every field is empty. Setup-built prompts
 * end with it, and the call engine appends the same string to hand-written prompts when
 * `business_context` is true; because it is deterministic, the engine can skip adding it
 * when the prompt already contains it.
 *
 * @example
 * describeBusiness({ ...emptyBusinessProfile(), display_name: 'Acme Dental', hours: 'Mon-Fri 9-5' });
 * // '# About the business\nUse these facts when callers ask about the business.\nName: Acme Dental\nOpening hours: Mon-Fri 9-5'
 */
export function describeBusiness(profile: BusinessProfile): string {
  const lines = PROFILE_LINES.flatMap(([field, label]) => {
    // `?? ''`: a profile stored before a field existed reads as unset, not as a crash.
    const value = clipText(toOneLine(profile[field] ?? ''), PROFILE_FIELD_MAX_CHARS);
    return value === '' ? [] : [`${label}: ${value}`];
  });
  if (lines.length === 0) return '';
  return ['# About the business', 'Use these facts when callers ask about the business.', ...lines].join('\n');
}
