/**
 * Messages between the page and the two worklet processors (over each node's MessagePort). One
 * module for both sides, so a change to a message is a type error on the other side.
 */
import type { PlayoutStats } from './playout';

/** The names the processors are registered under. */
export const CAPTURE_PROCESSOR = 'web-call-capture';
export const PLAYER_PROCESSOR = 'web-call-player';

/** Page → capture processor. */
export type ToCapture = { type: 'mute'; muted: boolean };
/** Capture processor → page: a 20 ms frame (transferred, not copied) and its level. */
export type FromCapture = { type: 'frame'; frame: ArrayBuffer; level: number };

/** Page → player processor: server audio (transferred), a mark, a barge-in. */
export type ToPlayer = { type: 'audio'; pcm: ArrayBuffer } | { type: 'mark'; name: string } | { type: 'clear' };
/**
 * Player processor → page: marks to echo and the figures at that moment (so a page that reads
 * `stats()` when it sees an echo reads the position the echo was decided at), or the figures
 * alone, a few times a second.
 */
export type FromPlayer = { type: 'marks'; names: readonly string[]; stats: PlayoutStats } | { type: 'stats'; stats: PlayoutStats };
