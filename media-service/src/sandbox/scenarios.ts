import { scenario, step, type Scenario, type ScenarioStep } from './scenario-script';
import { VOICEMAIL, VOICEMAIL_LONG, VOICEMAIL_NO_BEEP } from './machine-scenarios';

/**
 * The stock scenarios: the people a sandbox call can reach or be called by, written in the step
 * language of scenario-script.ts; developers pick them by name ({@link SANDBOX_SCENARIOS}).
 */

/** Answers, lets the assistant greet, greets back, asks one question, answers one question, says goodbye and hangs up. */
export const DEFAULT_CALLEE = scenario(
  'default',
  [
    // Like a person picking up: let the assistant's greeting play (up to 8 s), then answer it.
    step.waitForAssistant({ timeoutMs: 8000 }),
    step.say('Hello, this is Sam speaking.'),
    step.waitForAssistant(),
    step.say('Sure. Before that, are you open on Saturday mornings?'),
    step.waitForAssistant(),
    step.say('Tuesday at ten works for me.'),
    step.waitForAssistant(),
    step.say('Great, thank you. Goodbye!'),
    step.waitForAssistant({ quietMs: 600, timeoutMs: 4000 }),
    step.hangup(),
  ],
  {
    description:
      'Answers, lets the assistant greet (up to 8 s), greets back, asks one question, answers one question, says goodbye and hangs up.',
  },
);

/**
 * The fault numbers' caller (`sandbox-numbers.ts`): the default callee's lines, but it gives the
 * assistant 2.5 s of quiet before answering, as a person does when a line goes quiet mid-sentence,
 * so what the engine does in that gap (a reconnect, a fallback, the safety line) is what is heard.
 */
export const PATIENT_CALLEE = scenario(
  'patient',
  [
    step.waitForAssistant({ timeoutMs: 8000 }),
    step.say('Hello, this is Sam speaking.'),
    step.waitForAssistant({ quietMs: 2500 }),
    step.say('Sure. Before that, are you open on Saturday mornings?'),
    step.waitForAssistant({ quietMs: 2500 }),
    step.say('Tuesday at ten works for me.'),
    step.waitForAssistant({ quietMs: 2500 }),
    step.say('Great, thank you. Goodbye!'),
    step.waitForAssistant({ quietMs: 600, timeoutMs: 4000 }),
    step.hangup(),
  ],
  { description: "The default callee's lines, with 2.5 s of quiet before each answer (the fault numbers' caller)." },
);

/** Talks over the assistant twice, then wraps up. */
export const INTERRUPTER = scenario(
  'interrupter',
  [
    step.say("Hi, who's calling?"),
    step.bargeIn('Sorry, can I stop you there? How long will this take?', { afterAssistantStartsMs: 1200 }),
    step.waitForAssistant(),
    step.bargeIn('Okay, okay, I get it.', { afterAssistantStartsMs: 800 }),
    step.waitForAssistant(),
    step.say('Thanks. Bye.'),
    step.waitForAssistant({ quietMs: 600, timeoutMs: 4000 }),
    step.hangup(),
  ],
  { description: 'Interrupts the assistant mid-sentence twice (after 1.2 s and 0.8 s), then says goodbye.' },
);

/** Picks up and never says a word; ends when the assistant gives up (or after 2 minutes). */
export const SILENT = scenario('silent', [step.silence()], {
  description: 'Answers and stays silent (exercises silence timeouts and idle messages); hangs up after 2 min.',
  answeredBy: 'unknown',
  maxCallMs: 120_000,
});

/** Navigates by keypad: presses 1, then enters 1234#. */
export const KEYPRESSER = scenario(
  'keypresser',
  [
    step.say('Hello?'),
    step.waitForAssistant(),
    step.dtmf('1'),
    step.waitForAssistant(),
    step.dtmf('1234#'),
    step.waitForAssistant(),
    step.say('Thanks, bye.'),
    step.hangup(),
  ],
  { description: 'Says hello, presses 1, then types 1234# (DTMF), then says goodbye and hangs up.' },
);

/**
 * A caller with one request for a tool: lets the greeting play, asks, waits while the assistant
 * says it will act, runs the tool and says it is done (quiet 1.5 s: longer than the tool's pause),
 * then says `goodbye` and hangs up.
 */
function oneRequest(name: string, request: string, goodbye: string, description: string): Scenario {
  return scenario(
    name,
    [
      step.waitForAssistant({ timeoutMs: 8000 }),
      step.say(request),
      step.waitForAssistant({ quietMs: 1500 }),
      step.say(goodbye),
      step.waitForAssistant({ quietMs: 600, timeoutMs: 4000 }),
      step.hangup(),
    ],
    { description },
  );
}

/** Leaves an urgent message for Dana with the assistant (the `take_message` tool), then says goodbye. */
export const MESSAGE = oneRequest(
  'message',
  "Hi, this is Jordan Lee. Can you take a message for Dana: the boiler is leaking, it's urgent.",
  "No, that's all. Thanks, goodbye!",
  'Introduces themselves, leaves an urgent message for Dana (take_message), then says goodbye.',
);

/** Asks to be texted the business's address (the `send_sms` tool), then says goodbye. */
export const TEXT_ME = oneRequest(
  'text-me',
  'Hi, this is Sam Lee. Can you text me your address?',
  "That's all, thanks. Goodbye!",
  'Asks to be texted the address (send_sms to the number calling), then says goodbye.',
);

/** Asks to be texted a payment link for a $45 deposit (the `send_payment_link` tool), then says goodbye. */
export const PAY = oneRequest(
  'pay',
  'Hi, this is Jordan Lee. Can you text me a payment link for the $45 deposit?',
  "No, that's all. Thanks, goodbye!",
  'Asks to be texted a payment link for a $45 deposit (send_payment_link), then says goodbye.',
);

/** Waits for the assistant to finish the tool's round (its line, the tool, then the result spoken). */
const afterTool = () => step.waitForAssistant({ quietMs: 1500 });

/**
 * Lets the greeting play to its end, notices included: a question asked while the notice plays is
 * held over and joins the caller's next words as one turn.
 */
const afterGreeting = () => step.waitForAssistant({ quietMs: 1500, timeoutMs: 12_000 });

/** Says goodbye once the assistant has answered, then hangs up. */
const goodbyeSteps = (): ScenarioStep[] => [
  step.say("No, that's all. Thanks, goodbye!"),
  step.waitForAssistant({ quietMs: 600, timeoutMs: 4000 }),
  step.hangup(),
];

/** Asks what is free on Friday, books Friday at 10am as Sam Lee (check_availability, book_appointment), then says goodbye. */
export const BOOK = scenario(
  'book',
  [
    afterGreeting(),
    step.say('Hi, what times do you have on Friday?'),
    afterTool(),
    step.say('Can I book an appointment on Friday at 10am? This is Sam Lee.'),
    afterTool(),
    ...goodbyeSteps(),
  ],
  { description: 'Asks what is free on Friday, books Friday at 10am as Sam Lee (check_availability, book_appointment), says goodbye.' },
);

/** Moves their one upcoming appointment to Monday at 2pm (find_appointments, reschedule_appointment), then says goodbye. */
export const RESCHEDULE = scenario(
  'reschedule',
  [
    afterGreeting(),
    step.say('Hi, this is Sam Lee. I need to move my appointment to Monday at 2pm.'),
    // Two tool rounds: the lookup, then the move.
    afterTool(),
    ...goodbyeSteps(),
  ],
  { description: 'Moves their one upcoming appointment to Monday at 2pm (find_appointments, reschedule_appointment), says goodbye.' },
);

/** Cancels their one upcoming appointment (find_appointments, cancel_appointment), then says goodbye. */
export const CANCEL = scenario(
  'cancel',
  [afterGreeting(), step.say('Hi, this is Sam Lee. Please cancel my appointment.'), afterTool(), ...goodbyeSteps()],
  { description: 'Cancels their one upcoming appointment (find_appointments, cancel_appointment), says goodbye.' },
);

/**
 * Asks about an order, so the assistant calls the business's custom tool (docs/api-tour.md "Custom tools":
 * `lookup_order`, or any tool whose description shares three words with the request, per
 * sandbox-custom-tools.ts), hears the answer read back, then says goodbye.
 */
export const TOOL = askAndHear(
  'tool',
  ["Hi, this is Jordan Lee. Please lookup order AB1234 for me: what's the status and delivery date?"],
  'Asks for the status of order AB1234 (a custom tool such as lookup_order), hears the answer, then says goodbye.',
);

/** Asks for the opening hours by email at sam@example.com (the `email_caller` tool), then says goodbye. */
export const EMAIL_ME = oneRequest(
  'email-me',
  'Hi, this is Sam Lee. Please email me your opening hours at sam@example.com.',
  "That's all, thanks. Goodbye!",
  'Asks for the opening hours by email at sam@example.com (email_caller), then says goodbye.',
);

/**
 * Asks a question only the business's documents answer (docs/api-tour.md "Knowledge bases": the assistant
 * needs `knowledge_ids`), hears the passage read back, then says goodbye.
 */
export const ASK = askAndHear(
  'ask',
  ['Hi, how much does teeth whitening cost?'],
  "Asks how much teeth whitening costs (search_knowledge over the assistant's knowledge bases), hears the answer, then says goodbye.",
);

/**
 * Documents and a custom tool on one call (docs/api-tour.md "Documents and a tool on one call"): asks what
 * the cancellation policy is, which only the business's documents say (the shipped
 * `policies.pdf`: search_knowledge), hears it, then asks for the status of order AB1234 (the
 * business's custom tool, such as `lookup_order`), hears that, then says goodbye.
 */
export const ASK_AND_TOOL = askAndHear(
  'ask-and-tool',
  ['Hi, what is your cancellation policy?', "Thanks. Can you also lookup order AB1234 for me: what's the status?"],
  'Asks the cancellation policy (search_knowledge), then the status of order AB1234 (a custom tool such as lookup_order), hears both answers, then says goodbye.',
);

/**
 * Requests to tools that look something up, one a turn: "Let me check that for you.", the tool,
 * its answer; then goodbye. `npm run bench:knowledge` builds its callers' questions with it.
 *
 * @example
 * ```ts
 * carrier.registerScenario('+15550300001', askAndHear('parking', ['Is there somewhere to park?'], 'Asks about parking.'));
 * ```
 */
export function askAndHear(name: string, requests: readonly string[], description: string): Scenario {
  return scenario(
    name,
    [
      // 1.5 s of quiet: an assistant with the AI disclosure or recording notice says it before the greeting.
      step.waitForAssistant({ quietMs: 1500, timeoutMs: 10_000 }),
      // "Let me check that for you.", the tool runs (a filler if it takes over a second), then its answer.
      ...requests.flatMap((request) => [step.say(request), step.waitForAssistant({ quietMs: 2500, timeoutMs: 20_000 })]),
      step.say("No, that's all. Thanks, goodbye!"),
      step.waitForAssistant({ quietMs: 1000, timeoutMs: 6000 }),
      step.hangup(),
    ],
    { description },
  );
}

/**
 * A new patient answering an intake workflow (docs/api-tour.md "Workflows"): their name, date of birth and
 * kind of visit, one at a time as asked, then why they are coming; the workflow ends the call.
 */
export const INTAKE = scenario(
  'intake',
  [
    // The notices, the workflow's first line, then the model's first question (a model round trip after the line).
    step.waitForAssistant({ quietMs: 3000, timeoutMs: 20_000 }),
    step.say("It's Ada Lovelace."),
    step.waitForAssistant({ quietMs: 1500 }),
    step.say('March 4th, 1990.'),
    step.waitForAssistant({ quietMs: 1500 }),
    step.say("I'm a new patient."),
    step.waitForAssistant({ quietMs: 1500 }),
    step.say('I would like a cleaning, my teeth feel rough.'),
    step.waitForAssistant({ quietMs: 1500 }),
    step.hangup(),
  ],
  { description: 'A new patient giving name, date of birth and visit type to an intake workflow, then the reason for the visit.' },
);

/**
 * A caller who does not wait for the greeting: 1 s into it they ask their question (3 s of it,
 * over the greeting and the notices), then wait for the answer and say goodbye.
 */
export const TALK_OVER = scenario(
  'talk-over',
  [
    step.bargeIn('Hi, are you open on Saturday mornings? I can only come in before work.', {
      afterAssistantStartsMs: 1000,
      durationMs: 3000,
    }),
    step.waitForAssistant({ quietMs: 1500, timeoutMs: 20_000, replyOnly: true }),
    ...goodbyeSteps(),
  ],
  {
    description:
      'Talks over the greeting: 1 s into it asks whether you are open on Saturday mornings (3 s), waits for the answer, then says goodbye.',
  },
);

/**
 * The scenarios a developer can pick by name for a sandbox inbound call
 * (`POST /sandbox/inbound-calls` `scenario`, `admin call-in --scenario`).
 */
export const SANDBOX_SCENARIOS = {
  default: DEFAULT_CALLEE,
  voicemail: VOICEMAIL,
  interrupter: INTERRUPTER,
  silent: SILENT,
  keypad: KEYPRESSER,
  message: MESSAGE,
  'text-me': TEXT_ME,
  pay: PAY,
  book: BOOK,
  reschedule: RESCHEDULE,
  cancel: CANCEL,
  tool: TOOL,
  'email-me': EMAIL_ME,
  ask: ASK,
  'ask-and-tool': ASK_AND_TOOL,
  intake: INTAKE,
  'voicemail-long': VOICEMAIL_LONG,
  'voicemail-no-beep': VOICEMAIL_NO_BEEP,
  'talk-over': TALK_OVER,
} as const satisfies Record<string, Scenario>;

/** A name of {@link SANDBOX_SCENARIOS}. */
export type SandboxScenarioName = keyof typeof SANDBOX_SCENARIOS;

/** The names of {@link SANDBOX_SCENARIOS}, in documentation order. */
export const SANDBOX_SCENARIO_NAMES = Object.keys(SANDBOX_SCENARIOS) as [SandboxScenarioName, ...SandboxScenarioName[]];
