/**
 * Weekly opening hours: per weekday, zero or more `HH:MM`–`HH:MM` ranges in the business's own
 * time zone. Pure: the availability rules and the prompt's "Opening hours" line both read it.
 */

/** Weekday keys in ISO order (Monday first), as luxon numbers them 1..7. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** One of {@link WEEKDAYS}. */
export type Weekday = (typeof WEEKDAYS)[number];

/** One opening range of a day; `end` is after `start`, both local wall-clock times. */
export interface TimeRange {
  start: string;
  end: string;
}

/** The week: a day with no range is closed. */
export type WeeklyHours = Record<Weekday, TimeRange[]>;

/** `HH:MM`, 24-hour; `24:00` is allowed as an end (open until midnight). */
export const CLOCK_PATTERN = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/**
 * Every opening time is a multiple of this many minutes, and so are durations, slot steps and
 * buffers: the slot locks that stop double bookings are this size (docs/design.md "Bookings").
 */
export const GRANULE_MINUTES = 5;

/** Minutes since midnight of an `HH:MM` value (assumed to match {@link CLOCK_PATTERN}). */
export function clockMinutes(clock: string): number {
  const [hours, minutes] = clock.split(':').map(Number);
  return hours! * 60 + minutes!;
}

/** The default week of a new business: Monday to Friday 09:00–17:00, closed at the weekend. */
export function defaultWeeklyHours(): WeeklyHours {
  const day = () => [{ start: '09:00', end: '17:00' }];
  return { mon: day(), tue: day(), wed: day(), thu: day(), fri: day(), sat: [], sun: [] };
}

/**
 * What is wrong with one day's ranges (each must end after it starts, fall on the 5-minute grid
 * and not overlap the others), as `[index, message]` pairs; empty when the day is fine.
 */
export function dayProblems(ranges: readonly TimeRange[]): Array<[number, string]> {
  const problems: Array<[number, string]> = [];
  const sorted = ranges.map((range, index) => ({ index, start: clockMinutes(range.start), end: clockMinutes(range.end) }));
  for (const range of sorted) {
    if (range.end <= range.start) problems.push([range.index, 'end must be after start']);
    else if (range.start % GRANULE_MINUTES !== 0 || range.end % GRANULE_MINUTES !== 0)
      problems.push([range.index, `times must be multiples of ${GRANULE_MINUTES} minutes`]);
  }
  sorted.sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i]!.start < sorted[i - 1]!.end) problems.push([sorted[i]!.index, 'ranges of one day must not overlap']);
  }
  return problems;
}

const LABELS: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

function dayText(ranges: readonly TimeRange[]): string {
  if (ranges.length === 0) return 'closed';
  return [...ranges]
    .sort((a, b) => clockMinutes(a.start) - clockMinutes(b.start))
    .map((range) => `${range.start}-${range.end}`)
    .join(', ');
}

/**
 * The week as one prompt line, consecutive days with the same hours grouped.
 *
 * @example
 * formatWeeklyHours(defaultWeeklyHours()); // 'Mon-Fri 09:00-17:00; Sat-Sun closed'
 */
export function formatWeeklyHours(hours: WeeklyHours): string {
  const groups: Array<{ from: Weekday; to: Weekday; text: string }> = [];
  for (const day of WEEKDAYS) {
    const text = dayText(hours[day] ?? []);
    const last = groups[groups.length - 1];
    if (last && last.text === text) last.to = day;
    else groups.push({ from: day, to: day, text });
  }
  return groups.map(({ from, to, text }) => `${from === to ? LABELS[from] : `${LABELS[from]}-${LABELS[to]}`} ${text}`).join('; ');
}

const DAY_INDEX: Record<string, number> = { mon: 0, tue: 1, wed: 2, thu: 3, fri: 4, sat: 5, sun: 6 };

/**
 * Reads the compact form the admin command line takes, `Mon-Fri 09:00-17:00; Sat 10:00-14:00`
 * (day names or ranges of them, then comma-separated time ranges; days not named are closed).
 * Returns an error message instead of hours when the text does not read.
 */
export function parseWeeklyHours(text: string): WeeklyHours | string {
  const week: WeeklyHours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
  for (const part of text.split(';').map((chunk) => chunk.trim().toLowerCase())) {
    if (part === '') continue;
    const match = /^([a-z]{3})(?:\s*-\s*([a-z]{3}))?\s+(.+)$/.exec(part);
    const from = match ? DAY_INDEX[match[1]!] : undefined;
    const to = match ? DAY_INDEX[match[2] ?? match[1]!] : undefined;
    if (!match || from === undefined || to === undefined || to < from) return `cannot read "${part}": expected e.g. "Mon-Fri 09:00-17:00"`;
    if (match[3] === 'closed') continue;
    const ranges: TimeRange[] = [];
    for (const span of match[3]!.split(',').map((chunk) => chunk.trim())) {
      const times = /^(\d{2}:\d{2})\s*-\s*(\d{2}:\d{2})$/.exec(span);
      if (!times || !CLOCK_PATTERN.test(times[1]!) || !CLOCK_PATTERN.test(times[2]!)) return `cannot read the times "${span}"`;
      ranges.push({ start: times[1]!, end: times[2]! });
    }
    for (let day = from; day <= to; day += 1) week[WEEKDAYS[day]!] = ranges.map((range) => ({ ...range }));
  }
  for (const day of WEEKDAYS) {
    const problem = dayProblems(week[day])[0];
    if (problem) return `${LABELS[day]}: ${problem[1]}`;
  }
  return week;
}
