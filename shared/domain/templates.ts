import type { SimpleSetupShape } from './setup-prompt';

/** `template` values of POST /assistants (spec), the default first. */
export const TEMPLATE_NAMES = ['receptionist', 'scheduler', 'lead_qualifier', 'support', 'blank'] as const;

/** A starting point for a new assistant. */
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** One line per template, for the README and the OpenAPI description of `template`. */
export const TEMPLATE_DESCRIPTIONS: Readonly<Record<TemplateName, string>> = {
  receptionist: 'Answers questions about the business, takes messages and transfers callers to the team.',
  scheduler: 'Books, reschedules and cancels appointments, confirming date, time, name and phone number.',
  lead_qualifier: 'Asks new customers qualifying questions one at a time and records need, budget and timeline.',
  support: 'Troubleshoots customer problems, collects order or account details and escalates what it cannot solve.',
  blank: 'Every setting at its default: no setup, prompt, greeting or analysis fields.',
};

type FieldType = 'string' | 'number' | 'boolean' | 'enum' | 'date';

/** A StructuredField (spec AnalysisCfg) of a template. */
interface TemplateField {
  name: string;
  type: FieldType;
  description: string;
  options?: string[];
}

/** The part of an AssistantConfig input a template sets; everything else takes its default. */
interface TemplateConfig {
  /** Short: said with the notices, it takes at most 7 s (docs/decisions.md "How long the notices take to say"). */
  first_message: string;
  /** Said instead on a call the business places: worded for someone who did not ring in. */
  outbound_first_message: string;
  setup: SimpleSetupShape;
  analysis: {
    summary_prompt: string;
    success_rubric: string;
    success_scale: 'pass_fail' | 'score_10' | 'descriptive';
    structured: TemplateField[];
  };
  advanced: {
    max_duration_s: number;
    silence_timeout_s: number;
    idle_messages: string[];
    idle_max: number;
    end_call_message: string;
    end_call_phrases: string[];
    voicemail_message?: string;
  };
  transcriber?: { keyterms: string[] };
}

function field(name: string, type: FieldType, description: string, options?: string[]): TemplateField {
  return options === undefined ? { name, type, description } : { name, type, description, options };
}

// Goodbyes and idle messages are said on calls both ways, so none thanks the person for calling.
// "goodbye" ends the call once the assistant closes (the setup prompts end every call with a
// short goodbye); no phrase that could occur mid-call, like "take care", is listed.
const END_CALL_PHRASES = ['goodbye', 'bye for now', 'have a great day'];

const CALLER_NAME = field('caller_name', 'string', "The caller's full name, as they gave it; null if not given.");
const CALLBACK_NUMBER = field(
  'callback_number',
  'string',
  'Best number to call the caller back on, digits only with country code if given.',
);

const RECEPTIONIST: TemplateConfig = {
  first_message: 'Hi, this is Ava. How can I help?',
  outbound_first_message: 'Hi, this is Ava. Got a minute?',
  setup: {
    role: 'receptionist',
    name: 'Ava',
    tone: 'friendly',
    helps_with:
      'Questions about the business, such as opening hours, location, directions, services and prices.\nTaking messages for the team.\nConnecting callers with a member of staff.',
    always:
      "Take the caller's name and callback number before ending any call the team needs to follow up on.\nTell callers who reach us outside opening hours when we open again.",
    never: "Give medical, legal or financial advice.\nShare anything about other customers or staff members' personal details.",
  },
  analysis: {
    summary_prompt:
      'Summarize the call in two or three sentences for the front-desk team: who called, why, what the assistant answered or did, and any follow-up the team needs to do, with the callback number if one was given.',
    success_rubric:
      "Score 10 when the caller's question was answered correctly, or a complete message was taken (name, callback number and reason), or the caller was transferred to the right person. Take points off for information that was invented or wrong, a message missing its callback number, the caller having to repeat themselves, or a call that ended before the caller's need was handled.",
    success_scale: 'score_10',
    structured: [
      CALLER_NAME,
      field('reason', 'string', 'Why the person called, in a few words (for example "change of address" or "price of a cleaning").'),
      CALLBACK_NUMBER,
      field('message', 'string', 'The message the caller left for the team, in their words; null if no message was taken.'),
      field('urgent', 'boolean', 'True when the caller said the matter is urgent or time-sensitive.'),
      field('follow_up_needed', 'boolean', 'True when someone from the team needs to contact the caller.'),
    ],
  },
  advanced: {
    max_duration_s: 600,
    silence_timeout_s: 12,
    idle_messages: ['Are you still there?', "I'm still here whenever you're ready. Is there anything I can help with?"],
    idle_max: 2,
    end_call_message: 'Thank you, and have a great day!',
    end_call_phrases: END_CALL_PHRASES,
  },
};

const SCHEDULER: TemplateConfig = {
  first_message: 'Hi, this is Maya. How can I help?',
  outbound_first_message: 'Hi, this is Maya. Got a minute?',
  setup: {
    role: 'scheduler',
    name: 'Maya',
    tone: 'friendly',
    helps_with:
      'Booking new appointments.\nRescheduling or cancelling existing appointments.\nQuestions about opening hours and available times.',
    always:
      'Read back the service, date, time, name and phone number before finishing a booking.\nAsk for a phone number with every booking so the team can reach the caller if plans change.',
    never:
      'Book a time outside opening hours or one that is already taken.\nConfirm an appointment that the booking tool has not confirmed.',
  },
  analysis: {
    summary_prompt:
      'Summarize the call in two or three sentences: what the caller wanted (book, reschedule, cancel or a question), the service, the appointment date and time agreed, and anything the team still needs to do.',
    success_rubric:
      "Pass when the caller's booking, change or cancellation was completed and read back to them (service, date, time, name and phone number), or when no time suited them and a callback request with a phone number was taken. Fail when the request was left unfinished, the details were not confirmed, or the assistant said an appointment was booked without the booking tool confirming it.",
    success_scale: 'pass_fail',
    structured: [
      field('request_type', 'enum', 'What the caller wanted to do.', ['book', 'reschedule', 'cancel', 'question']),
      field('appointment_date', 'date', 'Date of the appointment booked or moved to (the cancelled one for a cancellation).'),
      field('appointment_time', 'string', 'Start time of that appointment as HH:MM, 24-hour, in local time.'),
      field('service', 'string', 'The service or type of appointment, in the business\'s words (for example "cleaning").'),
      field('new_patient', 'boolean', 'True when the caller is new to the business (a new patient or client).'),
      CALLER_NAME,
      CALLBACK_NUMBER,
      field('booked', 'boolean', 'True when the booking, change or cancellation was confirmed during the call.'),
    ],
  },
  advanced: {
    max_duration_s: 600,
    silence_timeout_s: 15,
    idle_messages: ['Are you still there?', 'Take your time. Would you like me to suggest a few times?'],
    idle_max: 2,
    end_call_message: 'Thank you. We look forward to seeing you!',
    end_call_phrases: END_CALL_PHRASES,
  },
  transcriber: { keyterms: ['appointment', 'reschedule', 'cancellation', 'new patient'] },
};

const LEAD_QUALIFIER: TemplateConfig = {
  first_message: 'Hi, this is Jordan. How can I help?',
  outbound_first_message: 'Hi, this is Jordan. Got a minute?',
  setup: {
    role: 'lead_qualifier',
    name: 'Jordan',
    tone: 'professional',
    helps_with:
      'Learning what the caller needs and whether we are a good fit.\nArranging a follow-up call with the team.\nGeneral questions about what the business offers.',
    always:
      "Get the caller's name, phone number and email so the team can follow up.\nThank the caller for their time, whatever the outcome.",
    never:
      'Quote prices, discounts or delivery dates that are not in the business information.\nPush a caller who says they are not interested.',
  },
  analysis: {
    summary_prompt:
      'Summarize the call in three or four sentences for the sales team: who the caller is and their company, what they need and why now, their budget and timeline, who decides, and the next step agreed.',
    success_rubric:
      "Score 10 when the assistant learned the caller's need, timeline, budget and decision makers through natural conversation, confirmed their contact details, and agreed a clear next step. Take points off for each of those left out, for asking several questions at once, for pressuring the caller, and for quoting prices or terms that were not given to the assistant.",
    success_scale: 'score_10',
    structured: [
      field('contact_name', 'string', "The caller's full name."),
      field('company', 'string', 'The company or organisation the caller represents; null for a private person.'),
      field('job_title', 'string', "The caller's role or job title."),
      field('email', 'string', "The caller's email address, as confirmed on the call."),
      field('phone', 'string', "The caller's phone number, digits only with country code if given."),
      field('need', 'string', 'What the caller is looking for and the problem behind it, in one sentence.'),
      field('budget', 'number', "Budget as one number in the caller's currency (the midpoint of a range); null if not given."),
      field('timeline', 'enum', 'How soon the caller wants to start.', [
        'immediately',
        'within_3_months',
        '3_to_6_months',
        '6_to_12_months',
        'over_12_months',
        'unknown',
      ]),
      field('decision_maker', 'boolean', 'True when the caller makes the buying decision themselves.'),
      field('qualified', 'boolean', 'True when the need fits what the business offers and the caller has a budget or timeline.'),
      field('next_step', 'enum', 'The next step agreed.', ['meeting_booked', 'callback', 'send_information', 'none']),
    ],
  },
  advanced: {
    max_duration_s: 900,
    silence_timeout_s: 15,
    idle_messages: ['Are you still there?', 'No rush. Would it help if I asked that another way?'],
    idle_max: 2,
    end_call_message: 'Thanks again for your time. Have a great day!',
    end_call_phrases: END_CALL_PHRASES,
    voicemail_message:
      "Hi, this is Jordan, following up on your interest in what we offer. I'll try you again soon, or you can call us back on this number whenever suits you. Thanks!",
  },
  transcriber: { keyterms: ['budget', 'quote', 'timeline', 'decision maker', 'proposal'] },
};

const SUPPORT: TemplateConfig = {
  first_message: 'Hi, this is Sam. How can I help?',
  outbound_first_message: 'Hi, Sam from support. Got a minute?',
  setup: {
    role: 'support',
    name: 'Sam',
    tone: 'professional',
    helps_with:
      'Questions about orders, deliveries, returns and accounts.\nTroubleshooting common problems step by step.\nPassing anything you cannot solve to the support team.',
    always:
      'Ask for the order number or account email before looking into an order or account.\nTell the caller what happens next before the call ends.',
    never:
      'Promise refunds, replacements or credits unless a tool has confirmed them.\nAsk for full card numbers, passwords or security codes.',
  },
  analysis: {
    summary_prompt:
      'Summarize the call in two or three sentences for the support team: the problem, the order or account it concerns, what was tried, whether it was solved, and what the team must do next.',
    success_rubric:
      "Score 10 when the caller's problem was solved on the call, or escalated with everything the team needs (name, order or account number, the problem and what was tried) and the caller was told what happens next. Take points off for guessing about orders or policies, troubleshooting steps given several at a time, missing identifying details on an escalation, and a caller left frustrated or unsure what happens next.",
    success_scale: 'score_10',
    structured: [
      field('issue_category', 'enum', 'The kind of problem.', [
        'order_status',
        'delivery',
        'returns_refunds',
        'billing',
        'account_access',
        'product_problem',
        'other',
      ]),
      field('issue_summary', 'string', 'The problem in one sentence.'),
      field('order_number', 'string', 'Order number the caller gave, exactly as confirmed; null if none.'),
      field('account_email', 'string', "Email address of the caller's account, as confirmed; null if none."),
      CALLER_NAME,
      field('resolved', 'boolean', 'True when the problem was solved during the call.'),
      field('escalated', 'boolean', 'True when the call was transferred or handed to the team for follow-up.'),
      field('sentiment', 'enum', 'How the caller felt by the end of the call.', ['positive', 'neutral', 'negative']),
    ],
  },
  advanced: {
    // Troubleshooting takes longer, and callers go quiet while they look for an order number.
    max_duration_s: 1200,
    silence_timeout_s: 20,
    idle_messages: ["Take your time, I'm still here.", 'Are you still there?'],
    idle_max: 3,
    end_call_message: 'Thank you, and goodbye!',
    end_call_phrases: END_CALL_PHRASES,
  },
  transcriber: { keyterms: ['order number', 'tracking number', 'refund', 'account email', 'invoice'] },
};

const TEMPLATES: Readonly<Record<Exclude<TemplateName, 'blank'>, TemplateConfig>> = {
  receptionist: RECEPTIONIST,
  scheduler: SCHEDULER,
  lead_qualifier: LEAD_QUALIFIER,
  support: SUPPORT,
};

/**
 * The partial AssistantConfig input (spec field names) that a template stands for; pass it
 * to the config schema, which fills every other setting with its default. Each template has
 * a `setup` (so the save rebuilds `system_prompt` from it), a greeting, role-specific
 * analysis and call handling; `blank` is `{}`. Returns a fresh copy on every call.
 *
 * @example
 * parseAssistantConfig(templateConfig('scheduler'), ['body', 'config']);
 */
export function templateConfig(name: TemplateName): Record<string, unknown> {
  if (name === 'blank') return {};
  return structuredClone(TEMPLATES[name]) as unknown as Record<string, unknown>;
}
