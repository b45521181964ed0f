import { businessName, clipText, describeBusiness, toOneLine, type BusinessProfile } from './business-profile';
import { GROUND_RULES, INSTRUCTIONS_HEADING, PHONE_STYLE_RULES, ROLE_GUIDANCE, ROLE_TITLES, TONE_GUIDANCE } from './template-prompts';

/** SimpleSetup `role` values (spec), in the spec's order. */
export const SETUP_ROLES = ['receptionist', 'scheduler', 'lead_qualifier', 'support'] as const;

/** What the assistant does on calls; each role gets its own call-handling guidance. */
export type SetupRole = (typeof SETUP_ROLES)[number];

/** SimpleSetup `tone` values (spec), in the spec's order. */
export const SETUP_TONES = ['friendly', 'professional', 'relaxed'] as const;

/** How the assistant sounds. */
export type SetupTone = (typeof SETUP_TONES)[number];

/** Spec bounds of the SimpleSetup text fields, in characters. */
export const SETUP_BOUNDS = { name: 40, helps_with: 1500, always: 1500, never: 1500 } as const;

/** Spec bound of `system_prompt`; a setup-built prompt always fits it. */
export const SYSTEM_PROMPT_MAX_CHARS = 30_000;

/**
 * The spec's SimpleSetup: the plain-language form a business fills in instead of writing a
 * system prompt. Field names match the API so a parsed config's `setup` can be passed as is.
 */
export interface SimpleSetupShape {
  role: SetupRole;
  /** Persona name the assistant introduces itself with; '' for none. */
  name: string;
  tone: SetupTone;
  /** What callers can get help with, in the business's words. */
  helps_with: string;
  /** Things the assistant must always do. */
  always: string;
  /** Things the assistant must never do. */
  never: string;
}

/** A config's setup and prompt: the two fields the setup rule reads and writes. */
export interface SetupAndPrompt<S extends SimpleSetupShape = SimpleSetupShape> {
  setup: S | null;
  system_prompt: string;
}

const BULLET = /^(?:[-*•]|\d+[.)])\s+/;

/**
 * One instruction of the business: `Label: text` on one line, or `Label:` and a list when the
 * business wrote several lines (their own bullets or numbers are replaced by ours); '' when empty.
 */
function instructionLine(label: string, text: string, max: number): string {
  const items = clipText(text, max)
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim().replace(BULLET, '').trim())
    .filter((line) => line !== '');
  if (items.length === 0) return '';
  if (items.length === 1) return `${label}: ${items[0]}`;
  return `${label}:\n${items.map((item) => `- ${item}`).join('\n')}`;
}

/** The opening: who the assistant is, under which name, and for which business. */
function roleSection(setup: SimpleSetupShape, profile: BusinessProfile | null): string {
  const name = clipText(toOneLine(setup.name), SETUP_BOUNDS.name);
  const business = businessName(profile) || 'the business';
  const title = ROLE_TITLES[setup.role];
  const identity =
    name === ''
      ? `You are ${title} handling phone calls for ${business}. If a caller asks your name, say you are the virtual assistant for ${business}.`
      : `You are ${name}, ${title} handling phone calls for ${business}. Introduce yourself as ${name} when it fits.`;
  return `# Role\n${identity}`;
}

/** The business's own instructions (helps_with, always, never); '' when all are empty. */
function instructionsSection(setup: SimpleSetupShape): string {
  const helps = instructionLine('You can help with', setup.helps_with, SETUP_BOUNDS.helps_with);
  const lines = [
    helps,
    helps === ''
      ? ''
      : "If a caller needs something else, say it isn't something you can help with on this call and offer to take a message.",
    instructionLine('Always', setup.always, SETUP_BOUNDS.always),
    instructionLine('Never', setup.never, SETUP_BOUNDS.never),
  ].filter((line) => line !== '');
  if (lines.length === 0) return '';
  return [INSTRUCTIONS_HEADING, 'If one of these conflicts with the ground rules, the ground rules win.', ...lines].join('\n');
}

/**
 * The system prompt a SimpleSetup stands for: role and persona, tone, role-specific call
 * handling, the business's own instructions (sections left empty are omitted), phone speech
 * rules, ground rules, and the business profile block when `profile` is non-null and not
 * empty. Deterministic, and within {@link SYSTEM_PROMPT_MAX_CHARS} for any input (text fields
 * are clipped to their spec bounds, profile values to PROFILE_FIELD_MAX_CHARS).
 *
 * @example
 * buildSetupPrompt(
 *   { role: 'scheduler', name: 'Maya', tone: 'friendly', helps_with: 'Cleanings and check-ups', always: '', never: '' },
 *   profile, // null when config.business_context is false
 * );
 */
export function buildSetupPrompt(setup: SimpleSetupShape, profile: BusinessProfile | null): string {
  return [
    roleSection(setup, profile),
    `# Personality and tone\n${TONE_GUIDANCE[setup.tone]}`,
    `# How to handle calls\n${ROLE_GUIDANCE[setup.role]}`,
    instructionsSection(setup),
    PHONE_STYLE_RULES,
    GROUND_RULES,
    profile === null ? '' : describeBusiness(profile),
  ]
    .filter((section) => section !== '')
    .join('\n\n');
}

/**
 * The spec rule "While an assistant has a setup, its system prompt is rebuilt from the setup
 * on every save. Editing the prompt by hand clears the setup", applied to one save:
 * - `incoming.setup` null: returned unchanged (the prompt is the client's own).
 * - `incoming.setup` set: the prompt counts as hand-edited when `incoming.system_prompt` is
 *   non-empty AND differs from `previousSystemPrompt` (the prompt stored before this save;
 *   null on create) AND differs from the prompt the setup builds now. Then the setup is
 *   cleared (null) and the hand-written prompt kept.
 * - Otherwise the prompt is rebuilt: `buildSetupPrompt(setup, businessContext ? profile : null)`.
 *   So sending back the prompt you read (even one built before the profile changed), or an
 *   empty prompt, keeps the setup and refreshes the prompt.
 *
 * @example
 * // PATCH: previous is what GET returned; the client edited only the tone.
 * applySetupRule({ setup: { ...setup, tone: 'relaxed' }, system_prompt: previous }, previous, profile, true);
 * // → { setup: { …tone: 'relaxed' }, system_prompt: buildSetupPrompt({ …tone: 'relaxed' }, profile) }
 */
export function applySetupRule<S extends SimpleSetupShape>(
  incoming: SetupAndPrompt<S>,
  previousSystemPrompt: string | null,
  profile: BusinessProfile | null,
  businessContext: boolean,
): SetupAndPrompt<S> {
  if (incoming.setup === null) return { setup: null, system_prompt: incoming.system_prompt };
  const built = buildSetupPrompt(incoming.setup, businessContext ? profile : null);
  const prompt = incoming.system_prompt;
  const handEdited = prompt !== '' && prompt !== previousSystemPrompt && prompt !== built;
  return handEdited ? { setup: null, system_prompt: prompt } : { setup: incoming.setup, system_prompt: built };
}
