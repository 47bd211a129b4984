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

/** What a Deadlines watch calls when one of its bounds has run out. */
export interface Expiring {
  expire(bound: keyof BodyTimeout): void;
}

/** A watch no tick has seen yet. */
const UNSEEN = -1;

/**
 * One body under watch: the owner marks each chunk, the watcher reads the marks at its ticks.
 * Watches are linked to one another (see Deadlines): joining and leaving touch two neighbours,
 * where a Set hashed each new watch to find it again.
 */
export class Watch {
  readonly owner: Expiring;
  /** When the body began, as the first tick that saw it dates it; UNSEEN until then. */
  startedAt = UNSEEN;
  /** The tick that last saw the body quiet start (or the start): the idle bound runs from here. */
  quietSince = UNSEEN;
  /** A chunk arrived since the last tick. */
  active = false;
  /** The neighbours in the watcher's list; both null once it has left (and for the only one). */
  previous: Watch | null = null;
  next: Watch | null = null;
  /** In the watcher's list now. */
  watched = true;

  constructor(owner: Expiring) {
    this.owner = owner;
  }
}

/** Ticks per smallest bound: a bound is answered at most 2/TICKS_PER_BOUND of it late. */
const TICKS_PER_BOUND = 16;
const LONGEST_TICK_MS = 1000;

/**
 * `timeout` for every body one reader has in flight, on one timer. A timer per body cost its
 * request two Timeouts, a timer-list insertion and removal each, and a re-insertion per chunk
 * (benchmarks/http-cpu.ts); a chunk here costs one store, and a body's start none (a clock read
 * cost more than the rest of its watch). The price is resolution: the timer ticks every 1/16 of the
 * smaller bound (at most every second), and a body's start and each chunk are dated by the tick
 * that sees them, never before they happened, so a bound runs out at most two ticks late, and
 * never early. The timer runs only while some body is watched, and is unref'd: the connection a
 * body arrives on keeps the process alive.
 */
export class Deadlines {
  readonly #timeout: Required<BodyTimeout>;
  readonly #tick: number;
  /** The watches, newest first. */
  #first: Watch | null = null;
  #watching = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `timeout` with at least one bound above 0. */
  constructor(timeout: Required<BodyTimeout>) {
    this.#timeout = timeout;
    const smaller = Math.min(...[timeout.idle, timeout.total].filter((bound) => bound > 0));
    this.#tick = Math.max(1, Math.min(LONGEST_TICK_MS, Math.floor(smaller / TICKS_PER_BOUND)));
  }

  /** Bodies watched now. */
  get watching(): number {
    return this.#watching;
  }

  watch(owner: Expiring): Watch {
    const watch = new Watch(owner);
    const first = this.#first;
    if (first !== null) {
      watch.next = first;
      first.previous = watch;
    }
    this.#first = watch;
    this.#watching++;
    if (this.#timer === undefined) this.#timer = setInterval(this.#onTick, this.#tick).unref();
    return watch;
  }

  /** Safe to repeat; the timer stops at the next tick that finds nothing to watch. */
  unwatch(watch: Watch): void {
    if (!watch.watched) return;
    watch.watched = false;
    const {previous, next} = watch;
    if (previous === null) this.#first = next;
    else previous.next = next;
    if (next !== null) next.previous = previous;
    watch.previous = watch.next = null;
    this.#watching--;
  }

  #onTick = (): void => {
    if (this.#first === null) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const now = performance.now();
    const {idle, total} = this.#timeout;
    // The owners hear after the walk: what an owner's answer does (end other bodies, start new
    // ones) must not change the list under it.
    let expired: Array<readonly [Watch, keyof BodyTimeout]> | undefined;
    for (let watch: Watch | null = this.#first; watch !== null; watch = watch.next) {
      if (watch.startedAt === UNSEEN) {
        watch.startedAt = watch.quietSince = now;
        watch.active = false;
        continue;
      }
      if (watch.active) {
        watch.active = false;
        watch.quietSince = now;
      }
      const bound = total > 0 && now - watch.startedAt >= total ? 'total' : idle > 0 && now - watch.quietSince >= idle ? 'idle' : undefined;
      if (bound !== undefined) (expired ??= []).push([watch, bound]);
    }
    if (expired === undefined) return;
    for (const [watch, bound] of expired) {
      // One owner's answer may have ended another body on the list since the walk.
      if (!watch.watched) continue;
      // Out of the watch before the owner hears of it: each bound runs out once.
      this.unwatch(watch);
      watch.owner.expire(bound);
    }
  };
}
