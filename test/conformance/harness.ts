// What a row of the hostile conformance suite (doors.ts) and a case (cases.ts) share: a mount (the
// schema or validator a door is given, with the few options cases need), a body (the bytes, how
// they are cut, and how the sender behaves: ends, stalls, gives up), and a verdict (what the door
// told its caller, reduced to what every door can say, plus the door's own detail).

import type {Limits, OutputUnit} from '../../src/types.js';

// ---------------------------------------------------------------------------------------------
// Mounts

/** What a case asks a door to be set up with. A door that cannot honour an option must refuse to open. */
export interface Mount {
  /** A JSON Schema, a compiled validator, or (for the mount-time cases) anything else. */
  readonly schema: unknown;
  /** Most body bytes: the case is about the byte limit. */
  readonly limit?: number;
  /**
   * Bytes a door with a byte limit must let through, because the case is about something else (a
   * door without one has nothing to raise). Ignored when `limit` is given.
   */
  readonly bodyRoom?: number;
  /** Longest wait for the next byte, and longest time for the whole body, in ms. */
  readonly timeout?: {readonly idle?: number; readonly total?: number};
  /** The validator's limits (maxDepth, maxStringLength...). */
  readonly limits?: Limits;
  /** Any JSON value at the top level, where a door takes only objects and arrays by default. */
  readonly scalars?: boolean;
  /** The schema is the route's for this media type only (Fastify's `schema.body.content`). */
  readonly mediaType?: string;
  /** A framework hook that changes the parsed body, or replaces it with what it returns, before validation (Fastify's `preValidation`). */
  readonly changeBody?: (body: unknown) => unknown;
  /** Fastify's `onProtoPoisoning`. */
  readonly protoPoisoning?: 'remove';
  /** Who answers a refusal: the row's error styles, by index (0, the default, is the adapter's own). */
  readonly style?: number;
}

/** A mount with nothing but its schema. */
export function mount(schema: unknown, options: Omit<Mount, 'schema'> = {}): Mount {
  return {schema, ...options};
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** One step of a sender: bytes to send, a pause, or how it stops. */
export type Step = Uint8Array | {readonly pause: number} | 'stall' | 'fail';

export interface BodySpec {
  /** What the sender does, in order; the body ends after the last step unless that step is `stall` or `fail`. */
  readonly steps: () => Iterable<Step>;
  /** Total bytes when the body ends normally and its size is known beforehand. */
  readonly length?: number;
  /** Request headers beyond `content-type: application/json` (HTTP doors and `validateRequest`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Announce the length (`Content-Length`) rather than send chunked; needs `length` or a `content-length` header. */
  readonly announced?: boolean;
  /** Shown in failure messages. */
  readonly shown: string;
}

const encoder = new TextEncoder();

export function bytesOf(text: string | Uint8Array): Uint8Array {
  return typeof text === 'string' ? encoder.encode(text) : text;
}

/**
 * A sender: `next()` hands the door the next chunk (undefined at the end), never settles for a
 * stalled sender, and throws for one that gives up. `pulled` counts the bytes handed out.
 */
export class Source {
  pulled = 0;
  /** The door stopped reading (cancelled, returned, unsubscribed). */
  stopped = false;
  /** Waited on before each chunk: the interleaved cases alternate two bodies with it. */
  gate: ((index: number) => Promise<void>) | undefined;
  readonly #steps: Iterator<Step>;
  #handed = 0;
  #ended = false;
  readonly #watchers = new Set<() => void>();

  constructor(spec: BodySpec) {
    this.#steps = spec.steps()[Symbol.iterator]();
  }

  /** Chunks handed out so far. */
  get handed(): number {
    return this.#handed;
  }

  get ended(): boolean {
    return this.#ended;
  }

  async next(): Promise<Uint8Array | undefined> {
    for (;;) {
      const step = this.#steps.next();
      if (step.done === true) {
        this.#ended = true;
        this.changed();
        return undefined;
      }
      const value = step.value;
      if (value === 'stall') return new Promise<never>(() => {});
      if (value === 'fail') throw new Error('the sender went away mid-body');
      if (!(value instanceof Uint8Array)) {
        await sleep(value.pause);
        continue;
      }
      await this.gate?.(this.#handed);
      this.#handed++;
      this.pulled += value.length;
      this.changed();
      return value;
    }
  }

  stop(): void {
    this.stopped = true;
    this.changed();
  }

  /** Calls `watcher` at each chunk handed out, at the end, and at `changed()`, until it returns true. */
  watch(watcher: () => boolean): void {
    const once = (): void => {
      if (watcher()) this.#watchers.delete(once);
    };
    this.#watchers.add(once);
    once();
  }

  changed(): void {
    for (const watcher of [...this.#watchers]) watcher();
  }

  /** The source as an async iterable whose `return()` stops it (for `for await`, text-stream, RxJS). */
  iterable(): AsyncIterable<Uint8Array> {
    return {
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<Uint8Array>> => {
          const chunk = await this.next();
          return chunk === undefined ? {done: true, value: undefined} : {done: false, value: chunk};
        },
        return: async (): Promise<IteratorResult<Uint8Array>> => {
          this.stop();
          return {done: true, value: undefined};
        },
      }),
    };
  }

  /** The source as a web stream that hands out a chunk per pull (none ahead of a read). */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const chunk = await this.next();
          if (chunk === undefined) controller.close();
          else controller.enqueue(chunk);
        },
        cancel: () => this.stop(),
      },
      {highWaterMark: 0},
    );
  }
}

/** How a body is announced and labelled. */
export interface BodyOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** Send `Content-Length` (default: for a body of one piece). */
  readonly announced?: boolean;
  readonly shown?: string;
}

function describeBytes(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes);
  return text.length <= 60 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 40))}… (${bytes.length} bytes)`;
}

/** A body sent as these pieces, each its own chunk. */
export function pieces(parts: readonly (string | Uint8Array)[], options: BodyOptions = {}): BodySpec {
  const chunks = parts.map(bytesOf).filter((chunk) => chunk.length > 0);
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  return {
    steps: () => chunks,
    length,
    headers: options.headers,
    announced: options.announced ?? chunks.length <= 1,
    shown: options.shown ?? `${describeBytes(Buffer.concat(chunks))} in ${chunks.length} piece${chunks.length === 1 ? '' : 's'}`,
  };
}

/** The body in one piece. */
export function whole(text: string | Uint8Array, options: BodyOptions = {}): BodySpec {
  return pieces([text], options);
}

/** The body cut in two at byte `cut`. */
export function cutAt(text: string | Uint8Array, cut: number, options: BodyOptions = {}): BodySpec {
  const bytes = bytesOf(text);
  return pieces([bytes.subarray(0, cut), bytes.subarray(cut)], {shown: `${describeBytes(bytes)} cut at byte ${cut}`, ...options});
}

/** The body in chunks of `size` bytes. */
export function inPieces(bytes: Uint8Array, size: number, options: BodyOptions = {}): BodySpec {
  return pieces(Array.from({length: Math.ceil(bytes.length / size)}, (_, index) => bytes.subarray(index * size, index * size + size)), {announced: false, ...options});
}

/** The body one byte per chunk. */
export function bytewise(text: string | Uint8Array, options: BodyOptions = {}): BodySpec {
  const bytes = bytesOf(text);
  return pieces(Array.from(bytes, (_, index) => bytes.subarray(index, index + 1)), {shown: `${describeBytes(bytes)} a byte per chunk`, ...options});
}

/**
 * The body a byte per chunk, with an empty chunk before, between and after them. A door must read
 * an empty chunk as nothing: one between the halves of a character once moved every later offset.
 * Over HTTP the sender skips them (an empty chunk would end a chunked body).
 */
export function withEmptyChunks(text: string | Uint8Array, options: BodyOptions = {}): BodySpec {
  const bytes = bytesOf(text);
  const empty = bytes.subarray(0, 0);
  const chunks = [empty, ...Array.from(bytes, (_, index) => [bytes.subarray(index, index + 1), empty]).flat()];
  return {
    steps: () => chunks,
    length: bytes.length,
    headers: options.headers,
    announced: options.announced ?? false,
    shown: options.shown ?? `${describeBytes(bytes)} a byte per chunk, an empty chunk around each`,
  };
}

export interface LargeBody extends BodyOptions {
  readonly prefix: string | Uint8Array;
  /** Total bytes, prefix and suffix included. */
  readonly size: number;
  readonly suffix?: string | Uint8Array;
  /** Repeated to fill (default `x`); sent whole, as many times as fits, the last one cut. */
  readonly filler?: Uint8Array;
  /** Bytes per chunk when the filler is a single byte (default 64 KiB). */
  readonly chunk?: number;
}

/** A body of `size` bytes made as it is sent, never held whole. */
export function large(spec: LargeBody): BodySpec {
  const prefix = bytesOf(spec.prefix);
  const suffix = bytesOf(spec.suffix ?? '');
  const filler = spec.filler ?? new Uint8Array(spec.chunk ?? 64 * 1024).fill(0x78);
  const fill = spec.size - prefix.length - suffix.length;
  return {
    *steps() {
      yield prefix;
      for (let sent = 0; sent < fill; sent += filler.length) yield filler.subarray(0, Math.min(filler.length, fill - sent));
      if (suffix.length > 0) yield suffix;
    },
    length: spec.size,
    headers: spec.headers,
    announced: spec.announced ?? false,
    shown: spec.shown ?? `${describeBytes(prefix)} then ${fill} filler bytes`,
  };
}

/** The prefix, then `filler` without end (but never past `cap` bytes, so that a door that never stops still ends). */
export function endless(prefix: string, filler: string, cap: number, options: BodyOptions = {}): BodySpec {
  const start = bytesOf(prefix);
  const piece = bytesOf(filler.repeat(Math.max(1, Math.floor(4096 / filler.length))));
  return {
    *steps() {
      if (start.length > 0) yield start;
      for (let sent = start.length; sent < cap; sent += piece.length) yield piece;
    },
    headers: options.headers,
    announced: false,
    shown: options.shown ?? `${JSON.stringify(prefix)} then ${JSON.stringify(filler)} without end`,
  };
}

/** The prefix, then nothing: a sender that stalls; or, given `resume`, sends `rest` that many ms later. */
export function stalled(prefix: string, resume?: {after: number; rest: string}): BodySpec {
  return {
    *steps() {
      yield bytesOf(prefix);
      if (resume === undefined) return yield 'stall';
      yield {pause: resume.after};
      yield bytesOf(resume.rest);
    },
    announced: false,
    shown: resume === undefined ? `${JSON.stringify(prefix)}, then a stall` : `${JSON.stringify(prefix)}, then ${JSON.stringify(resume.rest)} after ${resume.after} ms`,
  };
}

/** The prefix, then `piece` every `pause` ms, `count` times, then `suffix`. */
export function trickle(prefix: string, piece: string, pause: number, count: number, suffix: string): BodySpec {
  return {
    *steps() {
      yield bytesOf(prefix);
      for (let sent = 0; sent < count; sent++) {
        yield {pause};
        yield bytesOf(piece);
      }
      yield bytesOf(suffix);
    },
    announced: false,
    shown: `${JSON.stringify(prefix)}, then ${JSON.stringify(piece)} every ${pause} ms, ${count} times`,
  };
}

/** The pieces, then the sender gives up (a client that hangs up, a source that throws). */
export function failing(parts: readonly string[], options: BodyOptions = {}): BodySpec {
  return {
    *steps() {
      for (const part of parts) yield bytesOf(part);
      yield 'fail';
    },
    headers: options.headers,
    announced: options.announced ?? false,
    length: options.announced === true ? 5000 : undefined,
    shown: `${JSON.stringify(parts.join(''))}, then the sender goes away`,
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

// ---------------------------------------------------------------------------------------------
// Verdicts

/** Why a door refused a body, in terms every door can state. */
export type Refusal = 'syntax' | 'validation' | 'limit' | 'media' | 'timeout' | 'aborted' | 'internal' | 'no document';

export interface Verdict {
  accepted: boolean;
  refusal?: Refusal;
  /** What the handler or caller got, for a door that hands over a value (absent otherwise). */
  value?: unknown;
  /** What an HTTP client was answered (the response body): nothing of the body may be echoed. */
  answer?: string;
  /** Everything else the door said (status, error type, output units), compared between runs of one door. */
  detail: unknown;
  /** Bytes the door took before its verdict (an HTTP server: read from the connection, head included). */
  consumed: number;
  /** What the request left behind on the server (listeners still attached), when the client went away. */
  leftBehind?: string[];
  /** The verdict came over HTTP: `consumed` counts what the server read from the connection. */
  wire?: true;
  /** Where the door's first error is, when it tells (an HTTP door: the error its app was handed). */
  firstError?: ErrorPlace;
}

/** The code and byte offset of an error (no `offset` key: a door that reads no bytes, such as tokens). */
export interface ErrorPlace {
  code?: unknown;
  offset?: number;
}

/** Where the first of `errors` is. */
export function placeOf(errors: readonly OutputUnit[] | undefined): ErrorPlace | undefined {
  const first = errors?.[0];
  if (first === undefined) return undefined;
  return {code: first.params?.['code'], offset: first.offset};
}

/** The part of a verdict that must not depend on how the body was cut or what came before it. */
export function comparable(verdict: Verdict): Omit<Verdict, 'consumed' | 'leftBehind' | 'wire' | 'firstError'> {
  const {consumed: _consumed, leftBehind: _leftBehind, wire: _wire, firstError: _firstError, ...rest} = verdict;
  return rest;
}

/** An output unit without what names the validator's own files (the CLI's absolute schema URI). */
export function unitDetail(unit: OutputUnit): Record<string, unknown> {
  const {kind, keyword, keywordLocation, instanceLocation, error, offset, line, column, params} = unit;
  return {kind, keyword, keywordLocation, instanceLocation, error, offset, line, column, params};
}

/** The refusal a validator's Result states: its first error's kind. */
export function refusalOfUnits(errors: readonly OutputUnit[]): Refusal {
  const kind = errors[0]?.kind;
  if (kind === 'syntax') return 'syntax';
  if (kind === 'limit') return errors[0]?.params?.['code'] === 'limit.number.inexact' ? 'syntax' : 'limit';
  return 'validation';
}

/** body-parser's `type` strings (and Fastify's codes for them), as a refusal. */
const REFUSAL_OF_TYPE: Readonly<Record<string, Refusal>> = {
  'entity.parse.failed': 'syntax',
  'entity.number.inexact': 'syntax',
  'entity.validation.failed': 'validation',
  'request.validation.failed': 'validation',
  'entity.too.large': 'limit',
  'entity.type.unsupported': 'media',
  'charset.unsupported': 'media',
  'encoding.unsupported': 'media',
  'request.timeout': 'timeout',
  'request.aborted': 'aborted',
  'internal.error': 'internal',
  FST_ERR_VALIDATION: 'validation',
  FST_ERR_CTP_INVALID_JSON_BODY: 'syntax',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'syntax',
  FST_ERR_CTP_BODY_TOO_LARGE: 'limit',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'media',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'syntax',
};

const REFUSAL_OF_STATUS: Readonly<Record<number, Refusal>> = {400: 'syntax', 408: 'timeout', 413: 'limit', 415: 'media', 422: 'validation'};

/** The refusal an HTTP answer states: by its error type or code when it names one, else by its status. */
export function refusalOfAnswer(status: number, code: unknown): Refusal {
  if (typeof code === 'string' && REFUSAL_OF_TYPE[code] !== undefined) return REFUSAL_OF_TYPE[code];
  return REFUSAL_OF_STATUS[status] ?? 'internal';
}

/** A rejection as a verdict: an HttpError by its type, anything else as the sender's failure reaching the caller. */
export function verdictOfRejection(thrown: unknown, consumed: number): Verdict {
  const {status, type, errors} = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as {status?: unknown; type?: unknown; errors?: unknown};
  if (typeof status === 'number') {
    const units = Array.isArray(errors) ? (errors as OutputUnit[]) : [];
    return {accepted: false, refusal: refusalOfAnswer(status, type), detail: {status, type, errors: units.map(unitDetail)}, consumed, firstError: placeOf(units)};
  }
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return {accepted: false, refusal: message.includes('sender went away') ? 'aborted' : 'internal', detail: {rejected: message}, consumed};
}

/** A validator's Result as a verdict. */
export function verdictOfResult(result: {valid: boolean; errors: readonly OutputUnit[]; value?: unknown}, consumed: number, givesValue: boolean): Verdict {
  const detail = {errors: result.errors.map(unitDetail)};
  if (!result.valid) return {accepted: false, refusal: refusalOfUnits(result.errors), detail, consumed, firstError: placeOf(result.errors)};
  return givesValue ? {accepted: true, value: result.value, detail, consumed} : {accepted: true, detail, consumed};
}

// ---------------------------------------------------------------------------------------------
// Doors

/** One row of the table: a thin harness around one front door (see doors.ts). */
export interface Door {
  readonly name: string;
  /** Cases this door does not run, by case name, each with the reason; the runner prints them. */
  readonly skip: Readonly<Record<string, string>>;
  /** Ways an app answers a refusal (HTTP doors); style 0 is the adapter's own. */
  readonly styles?: readonly string[];
  /** Sets the door up for every mount the cases use, once, before them. */
  open(mounts: readonly Mount[]): Promise<Opened>;
  /**
   * Mounts `schema` alone, given `options` as the door's options argument when there are any:
   * what that throws (or rejects with), undefined when it mounts.
   */
  mountError(schema: unknown, options?: unknown): Promise<unknown>;
}

export interface Opened {
  /** The verdict on one body through one of the mounts given to `open`. */
  judge(mount: Mount, body: BodySpec, source: Source): Promise<Verdict>;
  /** The verdicts on several bodies, for a door that judges them faster together (a process per call). */
  judgeAll?(mount: Mount, bodies: readonly BodySpec[]): Promise<Verdict[]>;
  /** The HTTP server, for the cases about connections. */
  readonly server?: ServerFacet;
  close(): Promise<void>;
}

export interface ServerFacet {
  readonly port: number;
  path(mount: Mount): string;
  /** The status this door answers a refusal with under the mount's style (Fastify: 400 for a schema violation). */
  statusOf(refusal: Refusal): number;
  /** Bytes the server read on the connection from the client's `localPort`. */
  bytesRead(localPort: number): number;
  /** Times a route handler ran: a refused or abandoned body never reaches one. */
  readonly handled: number;
}

/** What an HTTP row's app saw: its route handlers' runs, and the errors its error path was handed. */
export interface AppRecord {
  handled: number;
  told: Array<{type: unknown; errors: OutputUnit[]}>;
}

export function newRecord(): AppRecord {
  return {handled: 0, told: []};
}

/** Keeps what an app's error path was handed (an HttpError, or Fastify's error with its code). */
export function tell(record: AppRecord, error: unknown): void {
  const {type, code, errors} = (typeof error === 'object' && error !== null ? error : {}) as {type?: unknown; code?: unknown; errors?: unknown};
  record.told.push({type: type ?? code, errors: Array.isArray(errors) ? (errors as OutputUnit[]) : []});
}
