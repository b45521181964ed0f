/**
 * The one logger of every process (API, after-call functions, media service, local stack): one
 * JSON object per line with `level`, `time`, `service`, `message` and the caller's fields.
 *
 * Written straight to stderr, not through `console`: on Lambda (JSON log format) the runtime wraps
 * `console` output in its own JSON, which would nest ours as a string, while a raw line that is
 * already JSON with a `level` key is kept as is and filtered by the function's application log
 * level. On the media task stdout carries the EMF metric lines, so logs stay off it.
 */

/** Severities, lowest first; `LOG_LEVEL` names the lowest one written. */
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The structured part of a line. An `Error` anywhere in it is written as its name, message and stack. */
export type LogFields = Record<string, unknown>;

/** What every component takes to log: one method per level, and `child` to add context to every line. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose lines all carry `fields` (a call id, a business id). */
  child(fields: LogFields): Logger;
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** The `service` key, unless `POWERTOOLS_SERVICE_NAME` (set by infra on every function) names one. */
  service: string;
  /** Where `POWERTOOLS_SERVICE_NAME` and `LOG_LEVEL` are read (the composition root passes `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Receives each line, newline included (tests); stderr by default. */
  write?: (line: string) => void;
  now?: () => Date;
}

/**
 * A JSON-lines logger for one process.
 *
 * @example
 * const log = createLogger({ service: 'api', env: process.env });
 * log.error('rate limiter store failed', { error });
 */
export function createLogger(options: LoggerOptions): Logger {
  const env = options.env ?? {};
  const service = env.POWERTOOLS_SERVICE_NAME || options.service;
  const threshold = LOG_LEVELS.indexOf(parseLevel(env.LOG_LEVEL));
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  return loggerOver((level, message, fields) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const head = { level, time: now().toISOString(), service, message };
    // The head goes first and wins: a field named `message` or `level` cannot rewrite the line.
    write(`${line(Object.assign({ ...head }, fields, head))}\n`);
  });
}

/**
 * A Logger over one sink that receives each call with its context and fields merged (the call's
 * fields win); `child` adds context. {@link createLogger} writes JSON lines through it; tests keep lines.
 */
export function loggerOver(sink: (level: LogLevel, message: string, fields: LogFields) => void, context: LogFields = {}): Logger {
  const at = (level: LogLevel) => (message: string, fields?: LogFields) => sink(level, message, { ...context, ...fields });
  return {
    debug: at('DEBUG'),
    info: at('INFO'),
    warn: at('WARN'),
    error: at('ERROR'),
    child: (fields) => loggerOver(sink, { ...context, ...fields }),
  };
}

/** A logger that writes nothing (tests that do not look at logs). */
export const silentLogger: Logger = loggerOver(() => undefined);

/** `LOG_LEVEL` as a level; unset or unknown values mean INFO (a typo must not silence errors). */
function parseLevel(value: string | undefined): LogLevel {
  const upper = value?.trim().toUpperCase();
  return LOG_LEVELS.find((level) => level === upper) ?? 'INFO';
}

/**
 * The line's JSON. Errors keep only name, message and stack: never their other own properties
 * (an SDK error's request, a provider's response body) nor their cause. A value JSON cannot hold
 * (a cycle) leaves the line with its level and message and a note, rather than throwing at the caller.
 */
function line(entry: LogFields): string {
  try {
    return JSON.stringify(entry, (_key, value: unknown) => {
      if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
      return typeof value === 'bigint' ? value.toString() : value;
    });
  } catch {
    const { level, time, service, message } = entry;
    return JSON.stringify({ level, time, service, message, log_error: 'fields could not be serialised' });
  }
}
