import { describe, expect, it } from 'vitest';
import {
  describeBusiness,
  defaultBusinessProfile,
  PROFILE_FIELD_MAX_CHARS,
  type BusinessProfile,
} from '../../../shared/domain/business-profile';
import { parseWeeklyHours, type WeeklyHours } from '../../../shared/domain/opening-hours';
import {
  applySetupRule,
  buildSetupPrompt,
  SETUP_ROLES,
  SETUP_TONES,
  SYSTEM_PROMPT_MAX_CHARS,
  type SetupRole,
  type SetupTone,
  type SimpleSetupShape,
} from '../../../shared/domain/setup-prompt';

const PROFILE: BusinessProfile = {
  ...defaultBusinessProfile(),
  display_name: 'Acme Dental',
  timezone: 'America/New_York',
  hours: weekOf('Mon-Fri 09:00-17:00; Sat 10:00-14:00'),
  address: '12 Main St, Springfield',
  transfer_number: '+15550100001',
  team_emails: ['desk@acme.test'],
};

function weekOf(text: string): WeeklyHours {
  const week = parseWeeklyHours(text);
  if (typeof week === 'string') throw new Error(week);
  return week;
}

function setupOf(changes: Partial<SimpleSetupShape> = {}): SimpleSetupShape {
  return { role: 'receptionist', name: '', tone: 'friendly', helps_with: '', always: '', never: '', ...changes };
}

const ROLE_MARKERS: Record<SetupRole, string[]> = {
  receptionist: ['the virtual receptionist', 'take messages', 'transfer'],
  scheduler: ['the appointment scheduling assistant', 'book, reschedule and cancel', 'read back the details'],
  lead_qualifier: ['the new-customer intake assistant', 'one question at a time, and skip anything', 'budget'],
  support: ['the customer support assistant', 'Troubleshoot step by step', 'order number', 'Escalate when'],
};

const TONE_MARKERS: Record<SetupTone, string> = {
  friendly: 'Warm, upbeat and welcoming',
  professional: 'Calm, polite and efficient',
  relaxed: 'Easygoing and conversational',
};

const PHONE_RULES = [
  '# Speaking on the phone',
  'one or two sentences',
  'Ask only one question at a time',
  'Never use markdown',
  'emoji',
  'digit by digit',
  'Confirm the spelling',
];

const ROLE_TONE_CASES = SETUP_ROLES.flatMap((role) => SETUP_TONES.map((tone) => ({ role, tone })));

describe('buildSetupPrompt', () => {
  describe.each(ROLE_TONE_CASES)('role $role with tone $tone', ({ role, tone }) => {
    it('has the role guidance, the tone, the phone rules and the ground rules', () => {
      // Arrange
      const setup = setupOf({ role, tone, name: 'Ava' });
      // Act
      const prompt = buildSetupPrompt(setup, null);
      // Assert
      for (const marker of [...ROLE_MARKERS[role], TONE_MARKERS[tone], ...PHONE_RULES]) expect(prompt).toContain(marker);
      for (const other of SETUP_TONES.filter((t) => t !== tone)) expect(prompt).not.toContain(TONE_MARKERS[other]);
      expect(prompt).toContain('# Ground rules');
      expect(prompt).toMatch(/^# Role\nYou are Ava, /);
    });

    it('stays within the system_prompt bound for maximum inputs and a huge profile', () => {
      // Arrange: one-character lines turn into "- x" items, the largest expansion of the text
      const listy = 'x\n'.repeat(750);
      const setup = setupOf({ role, tone, name: 'N'.repeat(40), helps_with: listy, always: listy, never: 'y'.repeat(1500) });
      const huge = 'z'.repeat(10_000);
      const profile = { ...PROFILE, display_name: huge, closed_dates: [huge], address: huge, transfer_number: huge, team_emails: [huge] };
      // Act
      const prompt = buildSetupPrompt(setup, profile);
      // Assert
      expect(prompt.length).toBeLessThanOrEqual(SYSTEM_PROMPT_MAX_CHARS);
      expect(prompt).toContain('y'.repeat(1500));
    });
  });

  it.each([
    ['a name', 'Sam', 'You are Sam, the virtual receptionist handling phone calls for the business.'],
    ['no name', '', 'You are the virtual receptionist handling phone calls for the business. If a caller asks your name'],
  ])('opens with the persona when the setup has %s', (_case, name, opening) => {
    // Act
    const prompt = buildSetupPrompt(setupOf({ name }), null);
    // Assert
    expect(prompt).toContain(opening);
    expect(prompt).not.toContain('You are ,');
  });

  it.each([
    { helps_with: 'Cleanings', always: '', never: '', present: ['You can help with: Cleanings'], absent: ['Always:', 'Never:'] },
    { helps_with: '', always: 'Be brief.', never: '', present: ['Always: Be brief.'], absent: ['You can help with', 'Never:'] },
    {
      helps_with: '',
      always: '',
      never: 'Promise refunds.',
      present: ['Never: Promise refunds.'],
      absent: ['You can help with', 'Always:'],
    },
    { helps_with: ' ', always: '\n', never: '', present: [], absent: ['# Instructions from the business', 'You can help with', 'Always:'] },
  ])('includes only the filled instructions ($helps_with/$always/$never)', ({ present, absent, ...fields }) => {
    // Act
    const prompt = buildSetupPrompt(setupOf(fields), null);
    // Assert
    for (const text of present) expect(prompt).toContain(text);
    for (const text of absent) expect(prompt).not.toContain(text);
  });

  it("turns several written lines into a list, replacing the business's own bullets", () => {
    // Arrange
    const setup = setupOf({ always: '- Greet warmly\n\n2) Confirm the number\n• Say goodbye' });
    // Act
    const prompt = buildSetupPrompt(setup, null);
    // Assert
    expect(prompt).toContain('Always:\n- Greet warmly\n- Confirm the number\n- Say goodbye');
  });

  it.each([
    ['a filled profile', PROFILE, true],
    ['no profile (business_context off)', null, false],
  ])('describes the business only with %s', (_case, profile, included) => {
    // Act
    const prompt = buildSetupPrompt(setupOf(), profile);
    // Assert
    expect(prompt.includes('# About the business')).toBe(included);
    expect(prompt.includes('for Acme Dental')).toBe(included);
    if (profile !== null && included) expect(prompt.endsWith(describeBusiness(profile))).toBe(true);
  });

  it('is deterministic', () => {
    // Arrange
    const setup = setupOf({ role: 'support', name: 'Sam', helps_with: 'Orders', always: 'Be kind', never: 'Lie' });
    // Act / Assert
    expect(buildSetupPrompt(setup, PROFILE)).toBe(buildSetupPrompt({ ...setup }, { ...PROFILE }));
  });
});

describe('describeBusiness', () => {
  it('lists only the filled fields, one per line, the hours line derived from the week', () => {
    // Arrange
    const profile = {
      ...defaultBusinessProfile(),
      display_name: 'Acme Dental',
      address: '  \n ',
      hours: weekOf('Mon-Fri 09:00-12:00, 13:00-17:00; Sat 10:00-14:00'),
    };
    // Act
    const block = describeBusiness(profile);
    // Assert
    expect(block.split('\n')).toEqual([
      '# About the business',
      'Use these facts when callers ask about the business.',
      'Name: Acme Dental',
      'Opening hours: Mon-Fri 09:00-12:00, 13:00-17:00; Sat 10:00-14:00; Sun closed',
      'Time zone (opening hours and appointment times are in this zone): UTC',
      'Services: Appointment (30 min)',
    ]);
  });

  it('describes a new business by its default hours, zone and service', () => {
    // Act
    const block = describeBusiness(defaultBusinessProfile());
    // Assert
    expect(block).toContain('Opening hours: Mon-Fri 09:00-17:00; Sat-Sun closed');
    expect(block).not.toContain('Name:');
  });

  it('reads a profile stored before hours were structured (free text, one team email)', () => {
    // Arrange
    const stored = { display_name: 'Old', timezone: 'Europe/Madrid', hours: 'Mon-Sat 10:00-14:00', team_email: 'a@b.test' };
    // Act
    const block = describeBusiness(stored as unknown as BusinessProfile);
    // Assert
    expect(block).toContain('Opening hours: Mon-Sat 10:00-14:00; Sun closed');
    expect(block).toContain('Team email (where messages for the team go): a@b.test');
  });

  it('includes every field of a full profile, clipping long values', () => {
    // Arrange
    const profile = { ...PROFILE, address: 'a'.repeat(1000) };
    // Act
    const block = describeBusiness(profile);
    // Assert
    for (const value of ['Acme Dental', 'America/New_York', 'Sat 10:00-14:00', '+15550100001', 'desk@acme.test']) {
      expect(block).toContain(value);
    }
    const address = block.split('\n').find((line) => line.startsWith('Address: '));
    expect(address).toBe(`Address: ${'a'.repeat(PROFILE_FIELD_MAX_CHARS - 1)}…`);
  });
});

describe('applySetupRule', () => {
  const setup = setupOf({ role: 'scheduler', name: 'Maya', always: 'Confirm the date.' });
  const builtWith = (profile: BusinessProfile | null) => buildSetupPrompt(setup, profile);
  const oldProfile = { ...PROFILE, hours: weekOf('Mon-Fri 08:00-16:00') };

  it.each([
    {
      case: 'a save that echoes the stored prompt after the profile changed → rebuilt',
      prompt: builtWith(oldProfile),
      previous: builtWith(oldProfile),
      context: true,
      expected: { keepsSetup: true, prompt: builtWith(PROFILE) },
    },
    {
      case: 'an empty prompt → rebuilt',
      prompt: '',
      previous: 'anything stored before',
      context: true,
      expected: { keepsSetup: true, prompt: builtWith(PROFILE) },
    },
    {
      case: 'a create with an empty prompt → built',
      prompt: '',
      previous: null,
      context: true,
      expected: { keepsSetup: true, prompt: builtWith(PROFILE) },
    },
    {
      case: 'a create whose prompt is what the setup builds → kept with the setup',
      prompt: builtWith(PROFILE),
      previous: null,
      context: true,
      expected: { keepsSetup: true, prompt: builtWith(PROFILE) },
    },
    {
      case: 'business_context off → built without the profile',
      prompt: builtWith(PROFILE),
      previous: builtWith(PROFILE),
      context: false,
      expected: { keepsSetup: true, prompt: builtWith(null) },
    },
    {
      case: 'a hand-edited prompt → setup cleared, prompt kept',
      prompt: 'You are a pirate.',
      previous: builtWith(PROFILE),
      context: true,
      expected: { keepsSetup: false, prompt: 'You are a pirate.' },
    },
    {
      case: 'a create with a different prompt → setup cleared, prompt kept',
      prompt: 'My own prompt.',
      previous: null,
      context: true,
      expected: { keepsSetup: false, prompt: 'My own prompt.' },
    },
  ])('$case', ({ prompt, previous, context, expected }) => {
    // Act
    const result = applySetupRule({ setup, system_prompt: prompt }, previous, PROFILE, context);
    // Assert
    expect(result.setup).toEqual(expected.keepsSetup ? setup : null);
    expect(result.system_prompt).toBe(expected.prompt);
  });

  it('rebuilds from the edited setup when the client sends back the prompt it read', () => {
    // Arrange: the client read the assistant, changed only the tone, and sent the whole config back
    const stored = builtWith(PROFILE);
    const edited = { ...setup, tone: 'professional' as const };
    // Act
    const result = applySetupRule({ setup: edited, system_prompt: stored }, stored, PROFILE, true);
    // Assert
    expect(result.setup).toEqual(edited);
    expect(result.system_prompt).toBe(buildSetupPrompt(edited, PROFILE));
    expect(result.system_prompt).toContain(TONE_MARKERS.professional);
  });

  it.each([
    ['a create', null],
    ['an update', 'Old hand-written prompt.'],
  ])('leaves a config without setup unchanged on %s', (_case, previous) => {
    // Act
    const result = applySetupRule({ setup: null, system_prompt: 'Hand-written.' }, previous, PROFILE, true);
    // Assert
    expect(result).toEqual({ setup: null, system_prompt: 'Hand-written.' });
  });
});
