/**
 * What the sandbox analysis reads in a finished call's transcript, the way a careful person would:
 * only the caller's turns say who called and what they asked (the assistant's greeting and replies
 * never do), a voicemail greeting is a machine, a booking or a transfer happened only when a tool
 * line in the transcript shows it, and a request counts as answered only when the assistant's reply
 * to it ends with a statement rather than another question. Pure and deterministic: the same
 * transcript always reads the same.
 */

/** One line of the transcript as the analysis request carries it (`role: text`). */
export interface TranscriptLine {
  role: 'user' | 'assistant' | 'tool';
  text: string;
}

/** The facts of one call that the analysis is built from. */
export interface CallReading {
  /** The caller's non-blank turns, in order. */
  callerTurns: string[];
  /** The name the caller gave ("this is Sam", "my name is Sam", "Sam here", "soy Sam"), else null. */
  callerName: string | null;
  /** The caller's requests (questions or asks), in order; the first is the main one. */
  requests: string[];
  /** A short label for the main request's subject when it has a known one ("Opening hours"). */
  topic: string | null;
  /** The other end was an answering machine (its greeting is in the caller's turns). */
  voicemail: boolean;
  /** A person took part: some caller turn said more than a greeting, or keys were pressed. */
  conversation: boolean;
  /** A booking tool ran and did not report a failure. */
  booked: boolean;
  /** `reschedule_appointment` moved or `cancel_appointment` cancelled an appointment. */
  appointmentChanged: boolean;
  transferred: boolean;
  messageTaken: boolean;
  /** The assistant's reply to the main request ends with a statement (an answer, not a question back). */
  answered: boolean;
  /** The caller's last turn is a thanks or a goodbye. */
  farewell: boolean;
  /** The caller said something dissatisfied. */
  negative: boolean;
}

const ROLE_LINE = /^(user|assistant|tool):\s?(.*)$/;

/**
 * The transcript lines of the analysis request's user message (`<transcript>` … `</transcript>`,
 * one `role: text` line per entry; a line without a role continues the previous entry).
 */
export function transcriptLines(message: string): TranscriptLine[] {
  const body = /<transcript>\n?([\s\S]*?)\n?<\/transcript>/.exec(message)?.[1] ?? '';
  const lines: TranscriptLine[] = [];
  for (const raw of body.split('\n')) {
    const match = ROLE_LINE.exec(raw);
    const last = lines.at(-1);
    if (match) lines.push({ role: match[1] as TranscriptLine['role'], text: match[2]!.trim() });
    else if (last && raw.trim() !== '') last.text = `${last.text} ${raw.trim()}`.trim();
  }
  return lines;
}

/** A machine's greeting: a strong cue alone, or two weaker ones. */
const VOICEMAIL_STRONG = /\b(after the (tone|beep)|voice ?mail|mailbox|at the tone)\b/i;
const VOICEMAIL_WEAK = [
  /\byou'?ve reached\b/i,
  /\bleave (me |us )?(a|your) (message|name and number)\b/i,
  /\b(can'?t|cannot|unable to) (take|come to|answer) (your call|the phone)\b/i,
  /\bnot available( right now)?\b/i,
];

const NAME_WORD = "[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?";
const NAME_PATTERNS = [
  new RegExp(`\\b(?:[Tt]his is|[Mm]y name is|[Mm]y name's|[Ii]t's|I'm|I am)\\s+(${NAME_WORD}(?:\\s+${NAME_WORD})?)`),
  new RegExp(`(?:^|[.!?,]\\s*)(${NAME_WORD}) here\\b`),
  // The sandbox callers' introductions in the other languages (callee-lines.ts): es, fr, de, it, nl.
  new RegExp(
    `(?:^|[\\s,.!¡¿])(?:[Ss]oy|[Mm]e llamo|[Cc]'est|[Jj]e m'appelle|[Hh]ier spricht|[Ii]ch bin|[Ss]ono|[Mm]i chiamo)\\s+(${NAME_WORD})`,
  ),
  // Dutch "(Hallo,) met Sam" only where it opens a sentence: "I met Dana" is no introduction.
  new RegExp(`(?:^|[.!?,]\\s*)[Mm]et\\s+(${NAME_WORD})`),
];
/** Capitalised words that follow "this is" / "I'm" without being a name. */
const NOT_NAMES = new Set(
  'The A An Not Just Calling Here Sorry Fine Good Great Okay Ok Yes No Hello Hi Hey Well Still Looking Interested Monday Tuesday Wednesday Thursday Friday Saturday Sunday From About Also Really Very So'.split(
    ' ',
  ),
);

const GREETING_ONLY =
  /^(?:(?:hello|hi|hey|yes|yeah|yep|no|ok|okay|sure|um+|uh+|mm-?hmm|thanks|thank you|bye|goodbye|great|right)[\s,.!?]*)+$/i;
const ASKING =
  /\?|^(please\s+)?(book|cancel|reschedule|schedule|change|move|send|text|email|call|connect|transfer|put me)\b|\b(i'?d like|i would like|i want|i need|i'?m calling|i am calling|calling (about|to|because)|can i|could i|can you|could you|would you|do you|are you|is there|is it|help me|looking for|tell me)\b/i;
const FAREWELL = /\b(bye|goodbye|thanks|thank you|that'?s all)\b/i;
const NEGATIVE =
  /\b(angry|complain|complaint|frustrated|terrible|upset|unhappy|not happy|useless|ridiculous|waste of time|disappointed)\b/i;
const TOOL_FAILED = /\b(fail|failed|error|taken|unavailable|refused|could not|couldn'?t|invalid|rejected)\b/i;

const TOPICS: { pattern: RegExp; label: string }[] = [
  { pattern: /\b(cancel|reschedule|move my)\b/i, label: 'Change or cancel an appointment' },
  { pattern: /\b(book|appointment|schedule|reserve|booking)\b/i, label: 'Book an appointment' },
  { pattern: /\b(hours|open|close|closing)\b/i, label: 'Opening hours' },
  { pattern: /\b(price|cost|how much|fee|charge)\b/i, label: 'Prices' },
  { pattern: /\b(where|address|location|directions)\b/i, label: 'Location and directions' },
  { pattern: /\b(human|person|someone|manager|transfer)\b/i, label: 'Speak to a person' },
  { pattern: /\b(message|call me back|callback)\b/i, label: 'Leave a message' },
];

/**
 * A tool line's outcome, without the confirmation tail a booking tool adds after `;`
 * ("booking 57 confirmed; caller texted, caller email failed, team emailed" is a booking).
 */
function toolSucceeded(tool: string): boolean {
  return !TOOL_FAILED.test(tool.split(';')[0]!);
}

/** Sentences of a turn ("Sure. Before that, are you open?" → two). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

function callerNameIn(turns: readonly string[]): string | null {
  for (const turn of turns) {
    for (const pattern of NAME_PATTERNS) {
      const [first, second] = pattern.exec(turn)?.[1]?.split(/\s+/) ?? [];
      if (first === undefined || NOT_NAMES.has(first)) continue;
      return second === undefined || NOT_NAMES.has(second) ? first : `${first} ${second}`;
    }
  }
  return null;
}

function isVoicemail(firstTurn: string | undefined): boolean {
  if (firstTurn === undefined) return false;
  return VOICEMAIL_STRONG.test(firstTurn) || VOICEMAIL_WEAK.filter((cue) => cue.test(firstTurn)).length >= 2;
}

/** A caller sentence that asks for something (a question or an ask), not a bare greeting. */
function isRequest(sentence: string): boolean {
  return !GREETING_ONLY.test(sentence) && ASKING.test(sentence) && !/^(hello|hi|hey)\?*$/i.test(sentence);
}

/** "Is there anything else I can help you with?": a courtesy after an answer, not a question about the request. */
const FOLLOW_UP = /\banything else\b/i;
const NOT_AN_ANSWER = /\b(sorry|didn'?t catch|could you (say|repeat)|didn'?t work|try again)\b/i;

/**
 * True when the caller turn at `index` was answered before the caller spoke again: the tool the
 * assistant last ran for it (if any) succeeded, and its last reply (after any filler such as "Let
 * me check that for you.", and leaving out a closing "anything else?") ends with a statement.
 */
function answeredAfter(lines: readonly TranscriptLine[], index: number): boolean {
  const window: TranscriptLine[] = [];
  for (const line of lines.slice(index + 1)) {
    if (line.role === 'user' && line.text.trim() !== '') break;
    window.push(line);
  }
  const tool = window.filter((line) => line.role === 'tool').at(-1);
  if (tool && !toolSucceeded(tool.text)) return false;
  const reply = window.filter((line) => line.role === 'assistant' && line.text.trim() !== '').at(-1);
  const last = reply
    ? sentencesOf(reply.text)
        .filter((sentence) => !FOLLOW_UP.test(sentence))
        .at(-1)
    : undefined;
  return last !== undefined && !last.endsWith('?') && !NOT_AN_ANSWER.test(last);
}

/** Reads one transcript into the facts the analysis reports. */
export function readCall(lines: readonly TranscriptLine[]): CallReading {
  const caller = lines.filter((line) => line.role === 'user' && line.text.trim() !== '');
  const callerTurns = caller.map((line) => line.text.trim());
  const tools = lines.filter((line) => line.role === 'tool').map((line) => line.text);
  const voicemail = isVoicemail(callerTurns[0]) && callerTurns.length <= 1;
  const keypad = callerTurns.some((turn) => turn.startsWith('[keypad]'));
  const spoken = callerTurns.filter((turn) => !turn.startsWith('[keypad]'));
  const conversation = !voicemail && (keypad || spoken.some((turn) => !GREETING_ONLY.test(turn)));
  const requests = conversation ? spoken.flatMap(sentencesOf).filter(isRequest) : [];
  const main = requests[0];
  const mainIndex = main === undefined ? -1 : lines.findIndex((line) => line.role === 'user' && line.text.includes(main));
  const last = spoken.at(-1) ?? '';
  return {
    callerTurns,
    callerName: voicemail ? null : callerNameIn(spoken),
    requests,
    topic: main === undefined ? null : (TOPICS.find((topic) => topic.pattern.test(main))?.label ?? null),
    voicemail,
    conversation,
    booked: tools.some((tool) => /book/i.test(tool) && toolSucceeded(tool)),
    appointmentChanged: tools.some((tool) => /^(reschedule|cancel)_appointment:.*\b(moved|cancelled)\b/i.test(tool) && toolSucceeded(tool)),
    transferred: tools.some((tool) => /^transfer/i.test(tool) && toolSucceeded(tool)),
    messageTaken: tools.some((tool) => /message/i.test(tool) && toolSucceeded(tool)),
    answered: mainIndex >= 0 && answeredAfter(lines, mainIndex),
    farewell: FAREWELL.test(last),
    negative: spoken.some((turn) => NEGATIVE.test(turn)),
  };
}
