// The `timeout` option of the doors that pull their input themselves (the web's validateRequest,
// validateTextStream): raced against each read, so a source that stalls, or trickles on, is
// answered with 408 request.timeout instead of being waited for without end. Nothing here needs a
// Node API.

import {timedOut, type BodyTimeout, type HttpError} from './http-errors.js';

/** `timeout` for one input: `expired` rejects with 408 request.timeout once a bound runs out. */
export class Deadline {
  readonly expired: Promise<never>;
  readonly #timeout: Required<BodyTimeout>;
  readonly #received: () => number;
  readonly #expire: (error: HttpError) => void;
  #ranOutWith: HttpError | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #totalTimer: ReturnType<typeof setTimeout> | undefined;

  /** `received` counts the bytes read so far, for the error's `length`. */
  constructor(timeout: Required<BodyTimeout>, received: () => number) {
    let expire!: (error: HttpError) => void;
    this.expired = new Promise<never>((_, reject) => (expire = reject));
    // Raced at each read; a deadline that runs out between reads is seen at the next one.
    this.expired.catch(ignore);
    this.#expire = expire;
    this.#timeout = timeout;
    this.#received = received;
    if (timeout.total > 0) this.#totalTimer = setTimeout(() => this.#runOut('total'), timeout.total);
    this.restartIdle();
  }

  /** A chunk arrived: the idle bound starts again. */
  restartIdle(): void {
    if (this.#timeout.idle === 0) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => this.#runOut('idle'), this.#timeout.idle);
  }

  /** `thrown` is this deadline's own 408, not something the source threw. */
  ranOut(thrown: unknown): thrown is HttpError {
    return thrown !== undefined && thrown === this.#ranOutWith;
  }

  clear(): void {
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#totalTimer);
  }

  #runOut(bound: keyof BodyTimeout): void {
    this.#ranOutWith ??= timedOut(bound, this.#timeout[bound], this.#received());
    this.#expire(this.#ranOutWith);
  }
}

function ignore(): void {}
