import { scenario, step } from './scenario-script';

/**
 * The sandbox's answering machines (docs/local-stack.md "Sandbox calls"): each greets, ends its
 * greeting the way Twilio's AMD reports it (a beep, or falling quiet), then records what the
 * assistant says (`machine-recording.ts` reads it back as words).
 */

/** A voicemail box: greeting, beep, then records until the caller hangs up (max 60 s). */
export const VOICEMAIL = scenario(
  'voicemail',
  [
    step.say("Hi, you've reached Jordan Lee. I can't take your call right now. Please leave a message after the tone."),
    step.pause(300),
    step.beep(),
    step.record(),
    step.silence(),
  ],
  {
    description: 'Voicemail greeting, then a beep (AMD: machine_end_beep), then records until hang-up (60 s max).',
    answeredBy: 'machine_end_beep',
    maxCallMs: 60_000,
  },
);

/**
 * A voicemail box with a 12 s greeting (a family's, read slowly) and a beep: an assistant that
 * speaks before the beep talks over it, and the machine records none of what it said.
 */
export const VOICEMAIL_LONG = scenario(
  'voicemail-long',
  [
    step.say(
      "Hi, you've reached the Rivera family. We can't come to the phone right now. Please leave your name, your number and a short message after the tone, and we'll call you back as soon as we can.",
      { durationMs: 12_000 },
    ),
    step.pause(300),
    step.beep(),
    step.record(),
    step.silence(),
  ],
  {
    description: 'A 12 s voicemail greeting, then a beep (AMD: machine_end_beep), then records until hang-up (90 s max).',
    answeredBy: 'machine_end_beep',
    maxCallMs: 90_000,
  },
);

/**
 * A voicemail box with no beep: the greeting just falls quiet and the machine records from there.
 * Twilio's AMD (`DetectMessageEnd`) calls the greeting over once 1.2 s of quiet follow it
 * (`MachineDetectionSpeechEndThreshold`'s default) and posts `machine_end_silence`.
 */
export const VOICEMAIL_NO_BEEP = scenario(
  'voicemail-no-beep',
  [
    step.say("Hello, this is Priya Shah's phone. Leave me a message and I'll get back to you."),
    step.record(),
    step.pause(1200),
    step.amd(),
    step.silence(),
  ],
  {
    description: 'Voicemail greeting with no beep: it falls quiet and records; AMD posts machine_end_silence 1.2 s later (60 s max).',
    answeredBy: 'machine_end_silence',
    maxCallMs: 60_000,
  },
);
