import { DateTime } from 'luxon';

/**
 * Days and times as a caller says them ("tomorrow", "on Friday", "November 30", "at 2pm"), turned
 * into the booking tools' local `YYYY-MM-DD` and `HH:MM` by the sandbox model. Relative days are
 * resolved from the call's "today" (the prompt's `todayLine`, the business's zone), never from this
 * machine's clock, so a sandbox call says the same words whenever it runs.
 */

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const TODAY_LINE = /\bToday is [A-Za-z]+ (\d{4}-\d{2}-\d{2})\b/;
const WEEKDAY = new RegExp(`\\b(${WEEKDAYS.join('|')})\\b`, 'i');
const MONTH_DAY = new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'i');
const ISO_DATE = /\b(\d{4}-\d{2}-\d{2})\b/;
const CLOCK_WITH_MERIDIEM = /\b(\d{1,2})(?::([0-5]\d))?\s*([ap])\.?\s?m\b\.?/i;
const AT_CLOCK = /\bat (\d{1,2})(?::([0-5]\d))?\b/i;

/** The call's local date from the system prompt's "Today is Thursday 2026-11-26 …" line, if it has one. */
export function todayFromPrompt(prompt: string): string | undefined {
  return TODAY_LINE.exec(prompt)?.[1];
}

/**
 * The local date the caller's words name, resolved against `today`: "today", "tomorrow", "the day
 * after tomorrow", a weekday (the next one after today: "Friday" said on a Friday is a week on),
 * "November 30" (this year, or next once passed), or `2026-11-30`. Undefined when none is named
 * ("next week" names no day).
 *
 * @example spokenDate('Can I come in on Friday?', '2026-11-26') // '2026-11-27'
 */
export function spokenDate(said: string, today: string): string | undefined {
  const base = DateTime.fromISO(today, { zone: 'utc' });
  if (!base.isValid) return undefined;
  const iso = ISO_DATE.exec(said)?.[1];
  if (iso !== undefined) return DateTime.fromISO(iso).isValid ? iso : undefined;
  if (/\bday after tomorrow\b/i.test(said)) return base.plus({ days: 2 }).toISODate()!;
  if (/\btomorrow\b/i.test(said)) return base.plus({ days: 1 }).toISODate()!;
  if (/\btoday\b/i.test(said)) return today;
  const monthDay = MONTH_DAY.exec(said);
  if (monthDay) {
    const date = DateTime.fromObject(
      { year: base.year, month: MONTHS.indexOf(monthDay[1]!.toLowerCase()) + 1, day: Number(monthDay[2]) },
      { zone: 'utc' },
    );
    if (!date.isValid) return undefined;
    return (date < base ? date.plus({ years: 1 }) : date).toISODate()!;
  }
  const weekday = WEEKDAY.exec(said);
  if (!weekday) return undefined;
  const ahead = ((WEEKDAYS.indexOf(weekday[1]!.toLowerCase()) + 1 - base.weekday + 6) % 7) + 1;
  return base.plus({ days: ahead }).toISODate()!;
}

/**
 * The clock time the caller names, `HH:MM`: "10am", "2:30 pm", "noon", or "at 3" (an hour without
 * am/pm from 1 to 6 is taken as afternoon, as people mean it). Undefined when none is named.
 */
export function spokenTime(said: string): string | undefined {
  if (/\bnoon\b/i.test(said)) return '12:00';
  const withMeridiem = CLOCK_WITH_MERIDIEM.exec(said);
  const bare = withMeridiem ? undefined : AT_CLOCK.exec(said);
  const match = withMeridiem ?? bare;
  if (!match) return undefined;
  let hour = Number(match[1]);
  if (hour < 1 || hour > 12) return bare && hour >= 13 && hour <= 23 ? `${hour}:${match[2] ?? '00'}` : undefined;
  const pm = withMeridiem ? withMeridiem[3]!.toLowerCase() === 'p' : hour <= 6;
  hour = (hour % 12) + (pm ? 12 : 0);
  return `${String(hour).padStart(2, '0')}:${match[2] ?? '00'}`;
}

/** A local date as said aloud: "Friday, November 27". */
export function sayDate(date: string): string {
  return DateTime.fromISO(date).setLocale('en').toFormat('cccc, LLLL d');
}

/** A local `HH:MM` as said aloud: "2:30 PM". */
export function sayTime(time: string): string {
  return DateTime.fromFormat(time, 'HH:mm').setLocale('en').toFormat('h:mm a');
}

/** Items joined as speech: "a", "a and b", "a, b and c". */
export function sayList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
