import { describe, expect, it } from 'vitest';
import { createLogger, type LoggerOptions } from '../../../shared/log';

const NOW = new Date('2026-11-02T10:00:00.000Z');

function capture(options: Partial<LoggerOptions> = {}) {
  const written: string[] = [];
  const log = createLogger({ service: 'api', now: () => NOW, write: (line) => void written.push(line), ...options });
  const lines = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { log, written, lines };
}

describe('createLogger', () => {
  it('writes one JSON object per line with level, time, service, message and the fields', () => {
    // Arrange
    const { log, written, lines } = capture();

    // Act
    log.info('call.started', { call_id: 'c1', note: 'two\nlines' });
    log.error('call.failed');

    // Assert
    expect(written).toHaveLength(2);
    for (const line of written) expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(lines()).toEqual([
      { level: 'INFO', time: NOW.toISOString(), service: 'api', message: 'call.started', call_id: 'c1', note: 'two\nlines' },
      { level: 'ERROR', time: NOW.toISOString(), service: 'api', message: 'call.failed' },
    ]);
  });

  describe.each([
    { LOG_LEVEL: 'DEBUG', written: ['DEBUG', 'INFO', 'WARN', 'ERROR'] },
    { LOG_LEVEL: 'INFO', written: ['INFO', 'WARN', 'ERROR'] },
    { LOG_LEVEL: 'warn', written: ['WARN', 'ERROR'] },
    { LOG_LEVEL: 'ERROR', written: ['ERROR'] },
    { LOG_LEVEL: undefined, written: ['INFO', 'WARN', 'ERROR'] },
    { LOG_LEVEL: 'LOUD', written: ['INFO', 'WARN', 'ERROR'] },
  ])('LOG_LEVEL=$LOG_LEVEL', ({ LOG_LEVEL, written }) => {
    it(`writes ${written.join(', ')}`, () => {
      // Arrange
      const { log, lines } = capture({ env: { LOG_LEVEL } });

      // Act
      log.debug('d');
      log.info('i');
      log.warn('w');
      log.error('e');

      // Assert
      expect(lines().map((line) => line.level)).toEqual(written);
    });
  });

  it('takes the service from POWERTOOLS_SERVICE_NAME over the name the composition root gives', () => {
    const { log, lines } = capture({ env: { POWERTOOLS_SERVICE_NAME: 'voice-api-prod' } });
    log.warn('x');
    expect(lines()[0]).toMatchObject({ service: 'voice-api-prod' });
  });

  it('writes an Error as its name, message and stack only, never its other properties or cause', () => {
    // Arrange
    const { log, lines } = capture();
    const error = Object.assign(new TypeError('boom', { cause: new Error('secret cause') }), {
      request: { headers: { authorization: 'Bearer sk-secret' } },
    });

    // Act
    log.error('store failed', { error, nested: { inner: new RangeError('deep') } });

    // Assert
    const [line] = lines();
    expect(line).toMatchObject({
      error: { name: 'TypeError', message: 'boom', stack: expect.stringContaining('TypeError: boom') },
      nested: { inner: { name: 'RangeError', message: 'deep' } },
    });
    expect(Object.keys(line!.error as object)).toEqual(['name', 'message', 'stack']);
    expect(JSON.stringify(line)).not.toContain('sk-secret');
    expect(JSON.stringify(line)).not.toContain('secret cause');
  });

  it('keeps level, time, service and message from being overwritten by fields', () => {
    const { log, lines } = capture();
    log.info('real', { message: 'forged', level: 'ERROR', service: 'other', time: 'never' });
    expect(lines()[0]).toMatchObject({ level: 'INFO', time: NOW.toISOString(), service: 'api', message: 'real' });
  });

  it('adds a child context to every line, the call fields winning over it', () => {
    // Arrange
    const { log, lines } = capture();
    const call = log.child({ call_id: 'c1', business_id: 7 }).child({ turn: 1 });

    // Act
    call.info('turn.started', { turn: 2 });
    log.info('unrelated');

    // Assert
    expect(lines()).toEqual([
      expect.objectContaining({ message: 'turn.started', call_id: 'c1', business_id: 7, turn: 2 }),
      expect.not.objectContaining({ call_id: 'c1' }),
    ]);
  });

  it('writes the line without its fields when they cannot be serialised, instead of throwing', () => {
    // Arrange
    const { log, lines } = capture();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;

    // Act
    log.error('odd', { cyclic, count: 10n });

    // Assert
    expect(lines()).toEqual([
      { level: 'ERROR', time: NOW.toISOString(), service: 'api', message: 'odd', log_error: 'fields could not be serialised' },
    ]);
  });

  it('writes bigints as strings', () => {
    const { log, lines } = capture();
    log.info('n', { count: 10n });
    expect(lines()[0]).toMatchObject({ count: '10' });
  });
});
