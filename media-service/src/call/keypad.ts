import type { TimerSet } from './timer-set';

/**
 * Keypad entry (`keypad` on): digits are gathered until `#` or a pause of `idleMs`, then handed
 * over as one caller message, `[keypad] 1 2 3 4 #`, the way people type an account number.
 */
export class Keypad {
  readonly #timers: TimerSet;
  readonly #idleMs: number;
  readonly #entered: (text: string) => void;
  #digits = '';

  /** `entered` gets each finished entry; the pause timer is `dtmf` in `timers`. */
  constructor(timers: TimerSet, idleMs: number, entered: (text: string) => void) {
    this.#timers = timers;
    this.#idleMs = idleMs;
    this.#entered = entered;
  }

  /** One key pressed: `#` ends the entry now, any other key restarts the pause. */
  press(digit: string): void {
    this.#digits += digit;
    if (digit === '#') return this.#flush();
    this.#timers.set('dtmf', this.#idleMs, () => this.#flush());
  }

  #flush(): void {
    this.#timers.cancel('dtmf');
    if (this.#digits === '') return;
    const text = `[keypad] ${this.#digits.split('').join(' ')}`;
    this.#digits = '';
    this.#entered(text);
  }
}
