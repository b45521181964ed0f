import { describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_TUNING } from '../../../../media-service/src/call/session-tuning';
import { FALLBACK, machineRig } from '../support/call-machine-rig';

/**
 * The call's machine at work: the reducer's effects carried out on a fake clock (timers, the
 * transcript, the hang-up), the voice's effects handed to a fake voice that records them. Rule by
 * rule tables are in `call-rules-*.test.ts`; these check that the machine runs them over time.
 */

const FAULT = { type: 'fault', error: new Error('model down'), voiceLost: false } as const;

describe('CallMachine ending', () => {
  it('endCall: the first reason wins; the goodbye plays before the session finishes', async () => {
    // Arrange
    const { events, finished, machine, said } = machineRig();
    // Act
    const ending = machine.endCall('assistant_ended', { goodbye: true });
    void machine.endCall('end_phrase', { goodbye: false });
    const before = [...finished];
    said('goodbye');
    await ending;
    // Assert
    expect(before).toEqual([]);
    expect(events).toEqual(['stop_thinking', 'say goodbye: Goodbye.']);
    expect(finished).toEqual(['assistant_ended']);
    expect(machine.pendingReason).toBe('assistant_ended');
  });

  it.each([
    ['max_duration silences the assistant before the goodbye', 'max_duration', ['stop_thinking', 'silence', 'say goodbye: Goodbye.']],
    ['canceled silences the assistant before the goodbye', 'canceled', ['stop_thinking', 'silence', 'say goodbye: Goodbye.']],
    ['silence_timeout lets it finish', 'silence_timeout', ['stop_thinking', 'say goodbye: Goodbye.']],
  ] as const)('%s', (_name, reason, expected) => {
    // Arrange
    const { events, machine } = machineRig();
    // Act
    void machine.endCall(reason, { goodbye: true });
    // Assert
    expect(events).toEqual(expected);
  });

  it('a goodbye that never finishes playing is cut off after goodbyeMaxMs', () => {
    // Arrange
    const { clock, finished, machine } = machineRig();
    void machine.endCall('silence_timeout', { goodbye: true });
    // Act
    clock.advance(DEFAULT_SESSION_TUNING.goodbyeMaxMs - 1);
    const before = [...finished];
    clock.advance(1);
    // Assert
    expect(before).toEqual([]);
    expect(finished).toEqual(['silence_timeout']);
  });

  it('no end message: finishes at once, goodbye or not', async () => {
    // Arrange
    const { events, finished, machine } = machineRig({ script: { endCallMessage: '' } });
    // Act
    await machine.endCall('assistant_ended', { goodbye: true });
    // Assert
    expect(events).toEqual(['stop_thinking']);
    expect(finished).toEqual(['assistant_ended']);
  });

  it('a provider failure overrides a pending ending: fallback line, then error; a second failure is ignored', () => {
    // Arrange
    const { events, finished, machine, dispatch, said } = machineRig();
    void machine.endCall('assistant_ended', { goodbye: true });
    events.length = 0;
    // Act
    dispatch(FAULT);
    dispatch({ type: 'reply_failed', error: new Error('again') });
    said('goodbye', true);
    said('goodbye');
    // Assert
    expect(events).toEqual(['log call.provider.failed', 'stop_thinking', 'silence', `say goodbye: ${FALLBACK}`]);
    expect(machine.pendingReason).toBe('error');
    expect(finished).toEqual(['error']);
  });

  it.each([
    ['the voice is lost', true, {}],
    ['safety_fallback is off', false, { safety_fallback: false }],
  ] as const)('failure without a fallback line when %s', (_name, voiceLost, advanced) => {
    // Arrange
    const { events, finished, dispatch } = machineRig({ advanced });
    // Act
    dispatch({ ...FAULT, voiceLost });
    // Assert
    expect(events).toEqual(['log call.provider.failed', 'stop_thinking', 'silence']);
    expect(finished).toEqual(['error']);
  });
});

describe('CallMachine silence and idle messages', () => {
  it('says each idle message after silence_timeout_s, then ends silence_timeout; caller words start them over', () => {
    // Arrange
    const { clock, events, machine, said, turn, dispatch } = machineRig({ advanced: { silence_timeout_s: 10, idle_max: 2 } });
    const silence = () => {
      clock.advance(10_000);
      said('idle');
    };
    // Act
    said('greeting');
    silence();
    silence();
    turn('Sorry, I was away.');
    dispatch({ type: 'reply_done', text: 'No problem.', calls: [], toolFiller: '', facts: machine.facts() });
    silence();
    silence();
    clock.advance(10_000);
    // Assert
    expect(events.filter((event) => event.startsWith('say'))).toEqual([
      'say idle (turn): Are you there?',
      'say idle (turn): Still there?',
      'say idle (turn): Are you there?',
      'say idle (turn): Still there?',
      'say goodbye: Goodbye.',
    ]);
    expect(machine.pendingReason).toBe('silence_timeout');
  });

  it('the clock waits while someone talks, stops when the caller starts, and never runs once the call is ending', () => {
    // Arrange
    const { clock, events, facts, machine, said, speech } = machineRig({ advanced: { silence_timeout_s: 10 } });
    // Act
    facts.callerSpeaking = true;
    said('greeting');
    clock.advance(20_000);
    facts.callerSpeaking = false;
    said('greeting');
    clock.advance(9_000);
    speech();
    clock.advance(20_000);
    void machine.endCall('assistant_ended', { goodbye: false });
    said('greeting');
    clock.advance(20_000);
    // Assert
    expect(events).toEqual(['stop_thinking']);
  });

  it('a silence timer that fires while a reply is thought up does nothing; the next quiet starts the clock again', () => {
    // Arrange
    const { clock, events, facts, said } = machineRig({ advanced: { silence_timeout_s: 10 } });
    said('greeting');
    // Act
    facts.replying = true;
    clock.advance(10_000);
    const during = [...events];
    facts.replying = false;
    said('reply');
    clock.advance(10_000);
    // Assert
    expect(during).toEqual([]);
    expect(events).toEqual(['say idle (turn): Are you there?']);
  });
});

describe('CallMachine keypad', () => {
  it('gathers digits until # or a pause, logs the entry as the caller, and hands it over', () => {
    // Arrange
    const { clock, events, machine } = machineRig();
    // Act
    machine.onDtmf('1');
    machine.onDtmf('2');
    clock.advance(1000);
    machine.onDtmf('#');
    machine.onDtmf('9');
    clock.advance(DEFAULT_SESSION_TUNING.dtmfIdleMs);
    // Assert
    expect(events.filter((event) => event.startsWith('user_words'))).toEqual(['user_words "[keypad] 1 2 #"', 'user_words "[keypad] 9"']);
    expect(machine.transcript().map((entry) => [entry.role, entry.text, entry.start_ms])).toEqual([
      ['user', '[keypad] 1 2 #', 1000],
      ['user', '[keypad] 9', 1000 + DEFAULT_SESSION_TUNING.dtmfIdleMs],
    ]);
  });

  it.each([
    [
      'barges in over audible speech',
      'anytime',
      true,
      ['barge_in', 'stop_thinking', 'user_words "[keypad] 5 #"', 'reply reply to "[keypad] 5 #"'],
    ],
    ['never barges in with interruptions never (held until quiet)', 'never', true, ['user_words "[keypad] 5 #"', 'stop_thinking']],
    ['has nothing to cut when the assistant is quiet', 'anytime', false, ['user_words "[keypad] 5 #"', 'reply reply to "[keypad] 5 #"']],
  ] as const)('%s', (_name, interruptions, audible, expected) => {
    // Arrange
    const { events, facts, machine } = machineRig({ advanced: { interruptions } });
    Object.assign(facts, { audible, speaking: audible });
    // Act
    machine.onDtmf('5');
    machine.onDtmf('#');
    // Assert
    expect(events.filter((event) => !event.startsWith('cancel'))).toEqual(expected);
  });

  it('a key press stops the silence clock; keys are ignored with keypad off or once the call is ending', () => {
    // Arrange
    const off = machineRig({ advanced: { keypad: false, silence_timeout_s: 10 } });
    const ending = machineRig();
    // Act
    off.said('greeting');
    off.machine.onDtmf('1');
    off.machine.onDtmf('#');
    off.clock.advance(10_000);
    ending.said('greeting');
    ending.machine.onDtmf('1');
    ending.clock.advance(DEFAULT_SESSION_TUNING.dtmfIdleMs);
    void ending.machine.endCall('assistant_ended', { goodbye: false });
    ending.machine.onDtmf('2');
    ending.machine.onDtmf('#');
    // Assert
    expect(off.events).toEqual(['say idle (turn): Are you there?']);
    expect(ending.events.filter((event) => event.startsWith('user_words') || event.startsWith('reply'))).toEqual([
      'user_words "[keypad] 1"',
      'reply reply to "[keypad] 1"',
    ]);
    expect(ending.machine.transcript().map((entry) => entry.text)).toEqual(['[keypad] 1']);
  });
});

describe('CallMachine voicemail', () => {
  it('an AMD beep verdict takes the ending, stops every timer, leaves the message and ends voicemail', () => {
    // Arrange
    const { clock, events, finished, machine, said } = machineRig({ advanced: { silence_timeout_s: 10 } });
    said('greeting');
    machine.onDtmf('1');
    // Act
    machine.onAmd('machine_end_beep');
    clock.advance(10_000);
    const before = [...finished];
    said('voicemail');
    // Assert
    expect(before).toEqual([]);
    expect(events).toEqual(['stop_thinking', 'silence', 'say voicemail: Please call us back.']);
    expect(finished).toEqual(['voicemail']);
    expect(machine.notices()).toEqual({ recording_notice_heard: null, ai_disclosure_heard: null });
  });

  it('machine_start: waits for the greeting to fall quiet, restarting on more speech', () => {
    // Arrange
    const { clock, events, machine, speech, turn } = machineRig();
    // Act
    machine.onAmd('machine_start');
    clock.advance(2000);
    speech();
    turn("you've reached Jordan, leave a message");
    clock.advance(2000);
    const before = [...events];
    clock.advance(600);
    // Assert
    expect(before).toEqual(['stop_thinking', 'silence']);
    expect(events).toEqual(['stop_thinking', 'silence', 'say voicemail: Please call us back.']);
  });

  it('a message that never reports played ends at its bound, which grows with its length', () => {
    // Arrange
    const { clock, finished, machine } = machineRig();
    machine.onAmd('machine_end_beep');
    // Act
    clock.advance(DEFAULT_SESSION_TUNING.goodbyeMaxMs + 'Please call us back.'.length * 120 - 1);
    const before = [...finished];
    clock.advance(1);
    // Assert
    expect(before).toEqual([]);
    expect(finished).toEqual(['voicemail']);
  });

  it.each([
    ['a voicemail-sounding first turn is taken', ["Hi, you've reached Jordan. Please leave a message after the tone."], true],
    ['an ordinary first turn is not', ['Hello, this is Sam speaking.'], false],
    [
      'a voicemail-sounding third turn is not (a person quoting one)',
      ['Hello?', 'Yes, who is this?', 'leave a message after the tone'],
      false,
    ],
  ])('caller turns: %s', (_name, turns, taken) => {
    // Arrange
    const { machine, turn } = machineRig({ advanced: { greeting_delay_ms: 0 } });
    // Act
    for (const text of turns) turn(text);
    // Assert
    expect(machine.state.voicemail !== 'none').toBe(taken);
    expect(machine.pendingReason === 'voicemail').toBe(taken);
  });

  it.each([
    [
      'no message: hangs up as soon as a machine is known',
      { script: { voicemailMessage: '' } },
      'machine_end_beep',
      ['stop_thinking', 'silence'],
      ['voicemail'],
    ],
    ['fax: hangs up without a message', {}, 'fax', ['stop_thinking', 'silence'], ['voicemail']],
    ['detection off: nothing happens', { advanced: { voicemail_detection: false } }, 'machine_end_beep', [], []],
    ['inbound calls never look for a machine', { direction: 'inbound' }, 'machine_end_beep', [], []],
    ['a person: nothing happens', {}, 'human', [], []],
  ] as const)('%s', (_name, options, answeredBy, expected, ended) => {
    // Arrange
    const { events, finished, machine } = machineRig(options);
    // Act
    machine.onAmd(answeredBy);
    // Assert
    expect(events).toEqual(expected);
    expect(finished).toEqual(ended);
  });

  it('a machine verdict after the call started ending for another reason changes nothing', () => {
    // Arrange
    const { events, machine } = machineRig();
    void machine.endCall('assistant_ended', { goodbye: false });
    // Act
    machine.onAmd('machine_end_beep');
    // Assert
    expect(events).toEqual(['stop_thinking']);
    expect(machine.pendingReason).toBe('assistant_ended');
  });
});
