import { describe, expect, it } from 'vitest';
import type { Call } from '../support/call-rules';
import { controlledTool, lookup, machineRig } from '../support/call-machine-rig';

/**
 * The call's machine after a reply: end_call, end phrases and the notice, then the reply's tools
 * run on the real {@link ToolRunner} over a fake clock (filler, timeouts, errors, rounds, a call
 * ending while a tool runs). Tables of the same rules are in `call-rules-endings.test.ts`.
 */

const replyDone = (rig: ReturnType<typeof machineRig>, text: string, calls: readonly Call[]) => rig.machine.replyDone(text, calls);
const spoken = (events: readonly string[]) => events.filter((event) => event.startsWith('say'));
const modelSide = (events: readonly string[]) =>
  events.filter((event) => event.startsWith('tool_result') || event.startsWith('reply') || event.startsWith('say filler'));

describe('CallMachine after a reply', () => {
  it.each([
    ['end_call after words: no goodbye', 'Thanks, bye.', [{ id: 'c1', name: 'end_call', arguments: '{}' }], 'assistant_ended', []],
    [
      'end_call with nothing said: the goodbye',
      '',
      [{ id: 'c1', name: 'end_call', arguments: '{}' }],
      'assistant_ended',
      ['say goodbye: Goodbye.'],
    ],
    ['an end phrase', 'Goodbye!', [], 'end_phrase', []],
  ] as const)('%s', (_name, text, calls, reason, said) => {
    // Arrange
    const rig = machineRig({ advanced: { end_call_phrases: ['goodbye'] } });
    // Act
    replyDone(rig, text, calls);
    // Assert
    expect(rig.machine.pendingReason).toBe(reason);
    expect(spoken(rig.events)).toEqual(said);
  });

  it('ordinary words: the conversation goes on; the notice stays due until it is heard', () => {
    // Arrange
    const rig = machineRig({ script: { notice: 'This call is recorded.' }, advanced: { recording: true, recording_notice: true } });
    // Act
    replyDone(rig, 'How can I help?', []);
    rig.turn('I need a plumber.');
    // Assert
    expect(rig.machine.pendingReason).toBeUndefined();
    expect(spoken(rig.events)).toEqual(['say notice: This call is recorded.']);
    expect(rig.machine.notices().recording_notice_heard).toBe(false);
  });
});

describe('CallMachine tools', () => {
  it('runs a tool, gives the model its output and asks again; the action and its transcript line are recorded', async () => {
    // Arrange
    const { tool, control } = controlledTool();
    const rig = machineRig({ tools: [tool] });
    // Act
    replyDone(rig, 'Let me check.', [lookup()]);
    const running = rig.machine.state.tools.running;
    rig.clock.advance(300);
    control.resolve!({ output: { found: 2 }, summary: '2 found' });
    await rig.settle();
    // Assert
    expect(running).toBe(1);
    expect(rig.machine.state.tools.running).toBe(0);
    expect(modelSide(rig.events)).toEqual(['tool_result lookup: {"found":2}', 'reply reply']);
    expect(rig.tools.actions()).toEqual([
      { name: 'lookup', arguments: { q: 'boiler' }, ok: true, result: '2 found', error: null, at_ms: 0, duration_ms: 300 },
    ]);
    expect(rig.machine.transcript().map((entry) => [entry.role, entry.text])).toEqual([['tool', 'lookup: 2 found']]);
  });

  it('a tool still running after toolFillerAfterMs gets one filler', async () => {
    // Arrange
    const { tool, control } = controlledTool();
    const rig = machineRig({ tools: [tool] });
    // Act
    replyDone(rig, '', [lookup()]);
    rig.clock.advance(999);
    const before = modelSide(rig.events);
    rig.clock.advance(1);
    control.resolve!({ output: {}, summary: 'done' });
    await rig.settle();
    // Assert
    expect(before).toEqual([]);
    expect(modelSide(rig.events)).toEqual(['say filler: One moment while I take care of that.', 'tool_result lookup: {}', 'reply reply']);
  });

  it('a tool that times out: the model is told in plain words, and the action records the error', async () => {
    // Arrange
    const { tool } = controlledTool('lookup', 2000);
    const rig = machineRig({ tools: [tool] });
    // Act
    replyDone(rig, '', [lookup()]);
    rig.clock.advance(2000);
    await rig.settle();
    // Assert
    expect(rig.events.filter((event) => event.startsWith('log') || modelSide([event]).length > 0)).toEqual([
      'say filler: One moment while I take care of that.',
      'log call.tool.timeout',
      'tool_result lookup: {"error":"The lookup system did not answer."}',
      'reply reply',
    ]);
    expect(rig.tools.actions()[0]).toMatchObject({ ok: false, result: '', error: 'The lookup system did not answer.', duration_ms: 2000 });
  });

  it.each([
    ['a failing back end', { q: 'x' }, 'The lookup system did not answer.'],
    [
      'invalid arguments',
      { q: '' },
      'The arguments were not valid (q: String should have at least 1 character). Ask the caller, then call the tool again.',
    ],
    [
      'an unknown field',
      { q: 'x', secret: 1 },
      'The arguments were not valid (secret: Extra inputs are not permitted). Ask the caller, then call the tool again.',
    ],
  ])('%s: the model hears the error and is asked again', async (_name, args, error) => {
    // Arrange
    const { tool, control } = controlledTool();
    const rig = machineRig({ tools: [tool] });
    // Act
    replyDone(rig, '', [lookup(args)]);
    control.reject?.(new Error('connection reset'));
    await rig.settle();
    // Assert
    expect(modelSide(rig.events)).toEqual([`tool_result lookup: ${JSON.stringify({ error })}`, 'reply reply']);
    expect(rig.tools.actions()[0]).toMatchObject({ name: 'lookup', ok: false, error });
  });

  it('tools this call does not offer are answered "not available" three rounds in a row, then the caller is answered', async () => {
    // Arrange
    const rig = machineRig();
    const calls = [{ id: 'c1', name: 'book', arguments: '{}' }];
    // Act
    for (let round = 0; round < 4; round++) {
      replyDone(rig, '', calls);
      await rig.settle();
    }
    // Assert
    const round = ['tool_result book: {"error":"The tool book is not available on this call."}', 'reply reply'];
    expect(modelSide(rig.events)).toEqual([
      ...round,
      ...round,
      ...round,
      'tool_result book: {"error":"Too many tool calls in a row. Answer the caller now."}',
    ]);
    expect(rig.tools.actions()).toHaveLength(3);
  });

  it('the caller speaking starts the tool rounds over', async () => {
    // Arrange
    const rig = machineRig();
    const calls = [{ id: 'c1', name: 'book', arguments: '{}' }];
    for (let round = 0; round < 3; round++) {
      replyDone(rig, '', calls);
      await rig.settle();
    }
    // Act
    rig.turn('Please try again.');
    replyDone(rig, '', calls);
    // Assert
    expect(rig.machine.state.tools).toMatchObject({ rounds: 1, running: 1 });
  });

  it('a call that ends while a tool runs: the tool is aborted and nothing more is asked of the model', async () => {
    // Arrange
    const { tool } = controlledTool();
    let aborted = false;
    tool.execute = (_args, context) =>
      new Promise((_, reject) => context.signal.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted')))));
    const rig = machineRig({ tools: [tool] });
    // Act
    replyDone(rig, '', [lookup()]);
    void rig.machine.endCall('caller_hung_up', { goodbye: false });
    rig.tools.close();
    await rig.settle();
    // Assert
    expect(aborted).toBe(true);
    expect(modelSide(rig.events)).toEqual([]);
    expect(rig.finished).toEqual(['caller_hung_up']);
    expect(rig.tools.actions()[0]).toMatchObject({ ok: false, error: 'The lookup system did not answer.' });
  });

  it('the time limit while a tool runs: the goodbye, and the tool result asks nothing of the model', async () => {
    // Arrange
    const { tool, control } = controlledTool();
    const rig = machineRig({ tools: [tool] });
    replyDone(rig, '', [lookup()]);
    // Act
    void rig.machine.endCall('max_duration', { goodbye: true });
    control.resolve!({ output: { found: 1 }, summary: '1 found' });
    await rig.settle();
    rig.said('goodbye');
    // Assert
    expect(modelSide(rig.events)).toEqual([]);
    expect(spoken(rig.events)).toEqual(['say goodbye: Goodbye.']);
    expect(rig.finished).toEqual(['max_duration']);
    expect(rig.machine.transcript().map((entry) => entry.text)).toEqual(['lookup: 1 found']);
  });

  it('end_call is recorded as an action', () => {
    // Arrange
    const rig = machineRig();
    // Act
    replyDone(rig, 'Bye.', [{ id: 'c9', name: 'end_call', arguments: '' }]);
    // Assert
    expect(rig.tools.actions()).toEqual([
      { name: 'end_call', arguments: {}, ok: true, result: 'call ended', error: null, at_ms: 0, duration_ms: 0 },
    ]);
    expect(rig.finished).toEqual(['assistant_ended']);
  });
});
