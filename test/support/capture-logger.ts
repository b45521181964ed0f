import { loggerOver, type LogFields, type Logger, type LogLevel } from '../../shared/log';

/** One line a {@link captureLogger} saw, its fields as given (Errors unserialised). */
export interface CapturedLine {
  level: LogLevel;
  message: string;
  fields?: LogFields;
}

/** A Logger that keeps its lines in memory (and hands each to `onLine`), for tests that assert on what was logged. */
export function captureLogger(onLine?: (line: CapturedLine) => void): { log: Logger; lines: CapturedLine[]; messages: () => string[] } {
  const lines: CapturedLine[] = [];
  const log = loggerOver((level, message, fields) => {
    const line = { level, message, ...(Object.keys(fields).length > 0 && { fields }) };
    lines.push(line);
    onLine?.(line);
  });
  return { log, lines, messages: () => lines.map((line) => line.message) };
}
