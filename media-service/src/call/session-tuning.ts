import type { SessionTuning } from './session-types';

/** Defaults of {@link SessionTuning}. */
export const DEFAULT_SESSION_TUNING: SessionTuning = {
  /** The sweeper calls a session dead after 120 s without a heartbeat: 4 missed beats. */
  heartbeatMs: 30_000,
  /** Vocode plays a filler past ~500 ms; 700 ms keeps fillers off the normal (eager) path. */
  fillerAfterMs: 700,
  /** Typical keypad entry leaves < 1 s between keys. */
  dtmfIdleMs: 1500,
  goodbyeMaxMs: 8000,
  voicemailQuietMs: 2500,
  /**
   * A person who picks up says "Hello?" within a second or two; a line still silent after 2 s is
   * greeted (docs/decisions.md "Outbound calls listen before they greet").
   */
  screenMs: 2000,
  /** About a second: past it a caller starts to wonder whether anyone is there (docs/design.md "How a call runs tools"). */
  toolFillerAfterMs: 1000,
};
