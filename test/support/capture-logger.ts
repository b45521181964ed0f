import type { LogFields, Logger, LogLevel } from '../../shared/log';

/** One line a {@link captureLogger} saw, its fields as given (Errors unserialised). */
export interface CapturedLine {
  level: LogLevel;
  message: string;
  fields?: LogFields;
}

/** A Logger that keeps its lines in memory, for tests that assert on what was logged. */
export function captureLogger(): { log: Logger; lines: CapturedLine[]; messages: () => string[] } {
  const lines: CapturedLine[] = [];
  const build = (context: LogFields): Logger => {
    const at = (level: LogLevel) => (message: string, fields?: LogFields) => {
      const all = { ...context, ...fields };
      lines.push({ level, message, ...(Object.keys(all).length > 0 && { fields: all }) });
    };
    return { debug: at('DEBUG'), info: at('INFO'), warn: at('WARN'), error: at('ERROR'), child: (fields) => build({ ...context, ...fields }) };
  };
  return { log: build({}), lines, messages: () => lines.map((line) => line.message) };
}
