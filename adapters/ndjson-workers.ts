// NDJSON on every core: the input is cut into batches that end at line feeds, each batch is
// validated by one of N worker threads, and the records come back in input order with their true
// line numbers. Shared by `stream-schema validate --jobs` and `ndjsonValidator(schema, {workers})`.
//
// One reader (this thread) cuts and numbers; workers validate; this thread merges. A cut at a
// line feed (0x0A) is always between two characters: no UTF-8 sequence contains that byte, so
// each batch decodes as it would in one pass. A line longer than a batch is sent in pieces, all
// to the worker that holds the line open, which validates it with a session as one pass would.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ArgumentError, ArgumentRangeError, compile } from '../src/index.js';
import type { CompileOptions, Validator } from '../src/types.js';
import { checkFirstLine, NdjsonRecordReader, RecordThrewError, type NdjsonReaderOptions, type NdjsonRecord } from './ndjson-lines.js';
import { withSyntaxPass } from './syntax-pass.js';
import { ANSI, formatUnit, PLAIN, type OutputFormat } from './cli-lines.js';

const LINE_FEED = 0x0a;
/** Bytes a batch holds at most (a longer line goes in pieces of this size): large enough that a message's cost is small beside the batch's validation. */
export const DEFAULT_BATCH_SIZE = 256 * 1024;
/**
 * The most workers and the largest batch a reader takes. Each worker compiles the schema and holds
 * a few batches: past these, memory is gigabytes and more threads than any machine has cores.
 */
export const MOST_WORKERS = 256;
export const MOST_BATCH_SIZE = 64 * 1024 * 1024;
/**
 * Lines a batch holds at most. A batch's answer holds its invalid records, errors and all, some
 * hundreds of bytes each: 256 KiB of `{}` lines is 87,000 records, and answers of that size, a few
 * per worker in flight, took gigabytes. Records of a few hundred bytes never reach it.
 */
export const MOST_BATCH_LINES = 1024;
/** Batches sent to one worker and not yet answered: enough to keep it busy while its answer travels. */
const BATCHES_IN_FLIGHT_PER_WORKER = 4;

export function defaultWorkers(): number {
  return Math.min(availableParallelism(), MOST_WORKERS + 1);
}

/**
 * What a worker compiles: everything travels by structured clone, so no function does. A module
 * URL stands for what cannot be cloned (the CLI's --custom-formats and --keywords), imported by
 * each worker.
 */
export interface WorkerRecipe {
  schema: unknown;
  options: CompileOptions;
  modules?: OptionModules;
  /** Wrap the validator with the CLI's syntax pass (adapters/syntax-pass.ts). */
  syntaxPass: boolean;
  readerOptions: Pick<NdjsonReaderOptions, 'parse' | 'maxLineLength'>;
  /** `every` record goes back to the main thread, or only the `invalid` ones (the CLI prints nothing else). */
  report: 'every' | 'invalid';
  /**
   * The invalid records go back as the CLI's error lines (BatchResult.lines), not as records: a
   * record's errors are objects, whose structured clone cost the reading thread more than the
   * validating saved (3 million `{}` lines under `required`: 13 s with --jobs 2, 8 s with --jobs 1).
   */
  lines?: LineFormat;
}

/** How the CLI writes an input's error lines (adapters/cli-lines.ts). */
export interface LineFormat {
  /** The input's name at the start of a text line, and a JSON line's `file`. */
  name: string;
  format: OutputFormat;
  color: boolean;
  /** --quiet: no line is written; only each record's count of errors goes back. */
  quiet: boolean;
}

/** A worker threw or died: its batch's records are unknown, so the whole input has no verdict. */
export class NdjsonWorkerError extends Error {
  override readonly name = 'NdjsonWorkerError';
  readonly code = 'ndjson.worker.failed';
  /** First line of the batch the worker was validating, when it was validating one. */
  readonly line: number | undefined;

  constructor(message: string, line: number | undefined, cause?: unknown) {
    super(line === undefined ? message : `${message} (validating lines from ${line})`, { cause });
    this.line = line;
  }
}

/** Options that a worker cannot be given: a function, a compiled validator. */
export class WorkerOptionsError extends ArgumentError {
  override readonly name = 'WorkerOptionsError';
  override readonly code = 'ndjson.workers.options';
}

/**
 * The recipe as a worker will receive it; refused (WorkerOptionsError) when structured clone
 * cannot carry it, here and not in the worker, where it would fail later and less clearly.
 */
export function checkedRecipe(recipe: WorkerRecipe): WorkerRecipe {
  try {
    structuredClone(recipe);
  } catch (error) {
    throw new WorkerOptionsError(
      `workers: the schema and compile options must be plain data that can be sent to a worker thread (${(error as Error).message}); a function, such as a customFormats entry or a keyword's validate, cannot (give a format as a RegExp, or validate without workers)`,
    );
  }
  return recipe;
}

// --- Cutting ---------------------------------------------------------------------------------

/** A part of the input, as handed to one worker. */
export interface Batch {
  /** A view from the start of a buffer of its own (transferable to a worker, and given back by it to be filled again). */
  bytes: Uint8Array;
  /** Line feeds in `bytes`. */
  lineFeeds: number;
  /** `bytes` end where a line ends (at LF, or at the end of the input): the next batch begins a line. */
  endsLine: boolean;
}

/**
 * Cuts UTF-8 chunks into batches of at most `batchSize` bytes that end at a line feed, or pieces
 * of `batchSize` bytes of a line longer than that. Chunks are copied into buffers of `batchSize`
 * bytes; a full buffer is cut after its last line feed and the bytes after it (the start of the
 * next line) are copied to the next buffer. Buffers given back (`recycle`) are filled again, so
 * that reading allocates nothing once as many buffers exist as batches are in flight: a fresh
 * buffer of 256 KiB costs more (its pages are faulted in and zeroed) than copying into it.
 */
export class BatchCutter {
  readonly #batchSize: number;
  readonly #free: ArrayBuffer[] = [];
  #current: Uint8Array | undefined;
  #filled = 0;
  /** A high surrogate that ended the last string chunk, kept to be encoded with its low half. */
  #highSurrogate = '';
  /** The last batch was a piece of a line: the input's end must still end that line. */
  #lineOpen = false;

  constructor(batchSize: number) {
    this.#batchSize = batchSize;
  }

  write(chunk: string | Uint8Array): Batch[] {
    const bytes = typeof chunk === 'string' ? this.#encode(chunk) : chunk;
    const batches: Batch[] = [];
    for (let offset = 0; offset < bytes.length; ) {
      const current = (this.#current ??= this.#buffer());
      const taken = Math.min(current.length - this.#filled, bytes.length - offset);
      current.set(taken === bytes.length ? bytes : bytes.subarray(offset, offset + taken), this.#filled);
      this.#filled += taken;
      offset += taken;
      if (this.#filled === current.length) this.#pushLines(batches, this.#cut(current));
    }
    return batches;
  }

  /** The rest: the input's last line, with or without its line feed (empty when it was all sent in pieces). */
  end(): Batch[] {
    const batches = this.#highSurrogate === '' ? [] : this.write(Buffer.from(this.#takeHighSurrogate(), 'utf8'));
    if (this.#filled === 0 && !this.#lineOpen) return batches;
    const bytes = (this.#current ?? this.#buffer()).subarray(0, this.#filled);
    this.#current = undefined;
    this.#filled = 0;
    this.#lineOpen = false;
    this.#pushLines(batches, { bytes, lineFeeds: countLineFeeds(bytes), endsLine: true });
    return batches;
  }

  /**
   * The lines held so far, up to the last line feed, as a batch of their own, without waiting for
   * the buffer to fill (a source gone quiet); the start of a line after it stays held.
   */
  flush(): Batch[] {
    const current = this.#current;
    if (current === undefined || this.#filled === 0) return [];
    const lineFeed = asBuffer(current).subarray(0, this.#filled).lastIndexOf(LINE_FEED);
    return lineFeed === -1 ? [] : this.#pushLines([], this.#cutAfter(current, lineFeed));
  }

  /** A batch's buffer, done with: it will hold a later batch. */
  recycle(buffer: ArrayBuffer): void {
    if (buffer.byteLength === this.#batchSize) this.#free.push(buffer);
  }

  #buffer(): Uint8Array {
    return new Uint8Array(this.#free.pop() ?? new ArrayBuffer(this.#batchSize));
  }

  /** The full buffer `current` as a batch up to its last line feed; what follows starts the next buffer. */
  #cut(current: Uint8Array): Batch {
    const lineFeed = asBuffer(current).lastIndexOf(LINE_FEED);
    if (lineFeed !== -1) return this.#cutAfter(current, lineFeed);
    this.#current = undefined;
    this.#filled = 0;
    this.#lineOpen = true;
    return { bytes: current, lineFeeds: 0, endsLine: false };
  }

  /**
   * The bytes held in `current` up to its line feed at `lineFeed` as a batch that ends a line (a
   * piece of which may have gone before it); the bytes held after it start the next buffer.
   */
  #cutAfter(current: Uint8Array, lineFeed: number): Batch {
    const rest = this.#filled - lineFeed - 1;
    this.#current = undefined;
    this.#filled = 0;
    this.#lineOpen = false;
    if (rest > 0) {
      this.#current = this.#buffer();
      this.#current.set(current.subarray(lineFeed + 1, lineFeed + 1 + rest));
      this.#filled = rest;
    }
    const bytes = current.subarray(0, lineFeed + 1);
    return { bytes, lineFeeds: countLineFeeds(bytes), endsLine: true };
  }

  /**
   * `batch` onto `batches`, in batches of at most MOST_BATCH_LINES lines. Each part is copied into
   * a buffer of its own (a buffer is transferred whole to one worker), and the batch's buffer is
   * filled again: only inputs of very short lines come here.
   */
  #pushLines(batches: Batch[], batch: Batch): Batch[] {
    if (batch.lineFeeds <= MOST_BATCH_LINES) {
      batches.push(batch);
      return batches;
    }
    const { bytes } = batch;
    const buffer = asBuffer(bytes);
    let start = 0;
    let lines = 0;
    for (let lineFeed = buffer.indexOf(LINE_FEED); lineFeed !== -1; lineFeed = buffer.indexOf(LINE_FEED, lineFeed + 1)) {
      if (++lines < MOST_BATCH_LINES) continue;
      batches.push({ bytes: new Uint8Array(bytes.subarray(start, lineFeed + 1)), lineFeeds: lines, endsLine: true });
      start = lineFeed + 1;
      lines = 0;
    }
    // The rest: fewer lines, and the batch's last line when it had no line feed (the input's end).
    if (start < bytes.length) batches.push({ bytes: new Uint8Array(bytes.subarray(start)), lineFeeds: lines, endsLine: batch.endsLine });
    this.recycle(bytes.buffer as ArrayBuffer);
    return batches;
  }

  #encode(text: string): Uint8Array {
    let whole = this.#takeHighSurrogate() + text;
    const last = whole.charCodeAt(whole.length - 1);
    // A surrogate pair split across string chunks is one character: encoded apart, each half
    // would become U+FFFD, where one pass would see the pair.
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#highSurrogate = whole.slice(-1);
      whole = whole.slice(0, -1);
    }
    return Buffer.from(whole, 'utf8');
  }

  #takeHighSurrogate(): string {
    const held = this.#highSurrogate;
    this.#highSurrogate = '';
    return held;
  }
}

/** Line feeds in `bytes`, found by Buffer's native search: a JavaScript loop over the bytes, or TypedArray's indexOf, takes 10 to 20 times as long. */
export function countLineFeeds(bytes: Uint8Array): number {
  const buffer = asBuffer(bytes);
  let count = 0;
  for (let index = buffer.indexOf(LINE_FEED); index !== -1; index = buffer.indexOf(LINE_FEED, index + 1)) count++;
  return count;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

// --- Validating a batch (in a worker, or here for an input of one batch) -------------------------

/** A batch as sent to a worker. */
export interface BatchMessage {
  sequence: number;
  /** Line number of the batch's first line (used when the batch begins a line). */
  firstLine: number;
  bytes: Uint8Array;
  endsLine: boolean;
}

/** A batch a worker could not validate (the worker failed, not a record): what it threw, described. */
export interface WorkerFailure {
  sequence: number;
  error: string;
}

/** A reported record and its place among the batch's records (0-based), for counts up to it. */
export interface ReportedRecord {
  ordinal: number;
  record: NdjsonRecord;
}

/** The invalid records of a batch as the CLI's error lines (WorkerRecipe.lines): one entry per record in `ordinals` and `units`, one per unit in `ends`. */
export interface ReportedLines {
  /** Each record's place among the batch's records (0-based). */
  ordinals: number[];
  /** Each record's count of errors (output units). */
  units: number[];
  /** The lines of every unit, in order (empty when quiet). */
  text: string;
  /** Where each unit's line ends in `text` (none when quiet). */
  ends: number[];
}

export interface BatchResult {
  sequence: number;
  /** Records (non-blank lines) completed in the batch. */
  records: number;
  /** The records reported, unless the recipe asks for `lines`. */
  reported: ReportedRecord[];
  lines?: ReportedLines;
  /** Lines completed so far in the whole input, as NdjsonRecordReader.linesRead. */
  linesRead: number;
  /** The batch's buffer, given back (transferred) to be filled again. */
  buffer: ArrayBuffer;
  /**
   * Validating the record on `line` threw `error` (a worker sends it described): the batch's records
   * are those before it, and the read ends once they are delivered, as one thread would end it.
   */
  threw?: { line: number; error: unknown };
}

/** Validates the batches given to one worker, a line split across batches included. */
export class BatchValidator {
  readonly #validator: Validator;
  readonly #recipe: WorkerRecipe;
  /** The reader of a line still open at the end of the last batch. */
  #reader: NdjsonRecordReader | undefined;
  #reported: ReportedRecord[] = [];
  #lines: ReportedLines | undefined;
  #records = 0;

  constructor(validator: Validator, recipe: WorkerRecipe) {
    this.#validator = validator;
    this.#recipe = recipe;
  }

  validate(message: BatchMessage): BatchResult {
    const reader = this.#reader ?? this.#newReader(message.firstLine);
    this.#reported = [];
    if (this.#recipe.lines !== undefined) this.#lines = { ordinals: [], units: [], text: '', ends: [] };
    this.#records = 0;
    let threw: BatchResult['threw'];
    try {
      // The reader keeps nothing of the bytes once write returns: the buffer can go back.
      reader.write(message.bytes);
      if (message.endsLine) reader.end();
    } catch (error) {
      if (!(error instanceof RecordThrewError)) throw error;
      threw = { line: error.line, error: error.cause };
    }
    this.#reader = message.endsLine ? undefined : reader;
    const result: BatchResult = { sequence: message.sequence, records: this.#records, reported: this.#reported, linesRead: reader.linesRead, buffer: message.bytes.buffer as ArrayBuffer };
    if (threw !== undefined) result.threw = threw;
    if (this.#lines !== undefined) result.lines = this.#lines;
    return result;
  }

  #newReader(firstLine: number): NdjsonRecordReader {
    const everyRecord = this.#recipe.report === 'every';
    const format = this.#recipe.lines;
    const style = format?.color === true ? ANSI : PLAIN;
    return new NdjsonRecordReader(this.#validator, { ...this.#recipe.readerOptions, firstLine }, (record) => {
      if (format !== undefined && !record.valid) {
        const lines = this.#lines!;
        lines.ordinals.push(this.#records);
        lines.units.push(record.errors.length);
        if (!format.quiet) {
          for (const unit of record.errors) {
            lines.text += formatUnit(format.name, unit, format.format, style);
            lines.ends.push(lines.text.length);
          }
        }
      } else if (everyRecord || !record.valid) this.#reported.push({ ordinal: this.#records, record });
      this.#records++;
    });
  }
}

/** The validator a recipe describes, as a worker compiles it. */
export async function compileRecipe(recipe: WorkerRecipe): Promise<Validator> {
  const options = { ...recipe.options };
  await loadOptionModules(recipe.modules ?? {}, options);
  const validator = compile(recipe.schema, options);
  return recipe.syntaxPass && !validator.allErrors ? withSyntaxPass(validator, compile(true)) : validator;
}

/** ES modules, by URL, that hold compile options made of functions. */
export interface OptionModules {
  /** Its default export, else its named exports, is `customFormats`. */
  customFormats?: string | undefined;
  /** Its default export, else its export `keywords`, is `keywords`. */
  keywords?: string | undefined;
}

/** A module of OptionModules that could not be imported; `cause` says why. */
export class OptionModuleError extends Error {
  override readonly name = 'OptionModuleError';
  readonly code = 'options.module.unreadable';

  constructor(readonly option: keyof OptionModules, readonly url: string, cause: unknown) {
    super(`${option}: cannot load ${url}: ${(cause as Error).message}`, { cause });
  }
}

/**
 * Sets `options.customFormats` and `options.keywords` from their modules: the one reading of the
 * CLI's --custom-formats and --keywords, in the main thread and in each worker alike. Compile
 * judges what they export, saying which entry is wrong.
 */
export async function loadOptionModules(modules: OptionModules, options: CompileOptions): Promise<void> {
  if (modules.customFormats !== undefined) {
    const module = await importOptionModule('customFormats', modules.customFormats);
    const named = Object.fromEntries(Object.entries(module).filter(([name]) => name !== 'default'));
    options.customFormats = (module.default ?? named) as CompileOptions['customFormats'];
  }
  if (modules.keywords !== undefined) {
    const module = await importOptionModule('keywords', modules.keywords);
    options.keywords = (module.default ?? module.keywords) as CompileOptions['keywords'];
  }
}

async function importOptionModule(option: keyof OptionModules, url: string): Promise<Record<string, unknown>> {
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new OptionModuleError(option, url, error);
  }
}

// --- The pool ----------------------------------------------------------------------------------

/**
 * A worker running adapters/ndjson-worker: the compiled JavaScript, or, when this module runs as
 * TypeScript (under tsx, as in the tests), the TypeScript source, loaded through tsx's loader,
 * which Node 20 does not pass on to worker threads by itself.
 */
function startWorker(recipe: WorkerRecipe): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./ndjson-worker.js', import.meta.url), { workerData: recipe, resourceLimits: WORKER_LIMITS });
  const source = new URL('./ndjson-worker.ts', import.meta.url).href;
  const loader = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: recipe, resourceLimits: WORKER_LIMITS });
}

/**
 * A worker's young generation, in MB. What a worker allocates lives for one record, so a small
 * nursery costs no speed, and V8's default for this machine's memory (tens of MB) is resident
 * memory held for nothing: on 1 GB of NDJSON, `--jobs 2` peaked at 110-112 MB of RSS with the
 * default and 97-100 MB with 4 MB, in 8.2-8.9 s and 8.2-8.5 s (three runs each, alternating).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4 };

interface PoolWorker {
  /** Null for this thread (WorkerPool's `here`). */
  worker: Worker | null;
  /** Sequence numbers sent and not answered, oldest first. */
  inFlight: number[];
}

/**
 * Batches this thread may validate beyond the workers' BATCHES_IN_FLIGHT_PER_WORKER, their
 * results waiting for an earlier batch a worker holds: enough to keep this thread busy while a
 * worker starts (some 0.3 s, 80 batches' work at 4 ms each, is not bought back), few enough that
 * what waits stays small. What waits is a result; the batch's buffer is given back at once.
 */
const BATCHES_AHEAD_HERE = 32;
/**
 * Reported records (invalid ones, for the CLI) that may wait for an earlier batch before this
 * thread validates another batch ahead: 32 batches of 1,024 invalid records each held the main
 * thread's heap above 64 MB (3 million `{}` lines under `required`).
 */
const MOST_WAITING_REPORTED = 4 * MOST_BATCH_LINES;
/** This thread as one of a pool's validators (see WorkerPool). */
interface Here {
  batches: BatchValidator;
  /** Gives a batch's buffer back to be filled again. */
  recycle: (buffer: ArrayBuffer) => void;
  entry: PoolWorker;
}

/** What a result of a batch validated here gives back: its buffer was given back already. */
const NO_BUFFER = new ArrayBuffer(0);

/**
 * N workers fed batches in order; results handed to `onResult` in the same order, whatever
 * order the workers finish in. `submit` waits while the worker it would use has
 * BATCHES_IN_FLIGHT_PER_WORKER batches unanswered, and while that many per worker are unanswered
 * or answered and waiting for an earlier one: a worker that is slow (starting, or on a hard
 * batch) holds the others back instead of letting their answers pile up. Memory stays at a few
 * batches per worker.
 *
 * With `here` (the CLI's --jobs), this thread validates a batch whenever every worker has its
 * fill, so that N threads validate with N - 1 workers: one isolate fewer to start, warm up and
 * hold in memory, while this thread's reading takes a few percent of a core.
 */
class WorkerPool {
  /** The workers started: one at first, another whenever every one started has a batch, up to `#most`. */
  readonly #workers: PoolWorker[];
  readonly #most: number;
  readonly #recipe: WorkerRecipe;
  readonly #onResult: (result: BatchResult) => void;
  readonly #firstLines = new Map<number, number>();
  readonly #waiting = new Map<number, BatchResult>();
  /** Records reported in the results of `#waiting`. */
  #waitingReported = 0;
  #nextSequence = 0;
  #nextDelivered = 0;
  /** The worker holding an open line: the next batch continues it and must go there too. */
  #lineHolder: PoolWorker | undefined;
  /**
   * What made the read fail, a worker's NdjsonWorkerError or whatever a batch validated here threw
   * (boxed: that may be any value, undefined too): every later submit and drain throws it.
   */
  #failure: { error: unknown } | undefined;
  #closed = false;
  /** Called when a result arrives or a worker fails: a submit or a drain waiting on it looks again. */
  #wake: (() => void) | undefined;
  /** This thread's validator and place in the pool, when it validates too. */
  readonly #here: Here | undefined;

  constructor(recipe: WorkerRecipe, workers: number, onResult: (result: BatchResult) => void, here?: Omit<Here, 'entry'>) {
    this.#onResult = onResult;
    this.#recipe = recipe;
    this.#most = workers;
    this.#workers = [this.#start()];
    this.#here = here && { ...here, entry: { worker: null, inFlight: [] } };
  }

  /** The next batch; resolves once a worker has taken it, or this thread has validated it. */
  async submit(batch: Batch, firstLine: number): Promise<void> {
    const here = this.#here;
    for (;;) {
      this.#throwIfFailed();
      if (this.#closed) return;
      const holder = this.#lineHolder;
      const undelivered = this.#nextSequence - this.#nextDelivered;
      const fill = this.#most * BATCHES_IN_FLIGHT_PER_WORKER;
      if (here !== undefined && holder === here.entry) return this.#validateHere(here, batch, firstLine);
      let target = holder ?? this.#leastBusy();
      // No more threads than the input keeps busy: a small input with a large --jobs starts few.
      if (holder === undefined && target.inFlight.length > 0 && this.#workers.length < this.#most) this.#workers.push((target = this.#start()));
      if (target.inFlight.length < BATCHES_IN_FLIGHT_PER_WORKER && undelivered < fill) {
        this.#send(target, batch, firstLine);
        return;
      }
      if (here !== undefined && holder === undefined && undelivered < fill + BATCHES_AHEAD_HERE && this.#waitingReported < MOST_WAITING_REPORTED) return this.#validateHere(here, batch, firstLine);
      await this.#nextEvent();
    }
  }

  /** Resolves when every submitted batch's result has been delivered. */
  async drain(): Promise<void> {
    for (;;) {
      this.#throwIfFailed();
      if (this.#closed || this.#nextDelivered === this.#nextSequence) return;
      await this.#nextEvent();
    }
  }

  /** Stops every worker, whatever it was doing; nothing more is delivered. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#wake?.();
    await Promise.all(this.#workers.map(({ worker }) => worker!.terminate()));
  }

  #start(): PoolWorker {
    const worker = startWorker(this.#recipe);
    const entry: PoolWorker = { worker, inFlight: [] };
    worker.on('message', (message: BatchResult | WorkerFailure) => {
      if ('error' in message) this.#fail(new NdjsonWorkerError(`a worker thread threw: ${message.error}`, this.#firstLines.get(message.sequence)));
      else this.#answered(entry, message);
    });
    worker.on('error', (error) => this.#fail(new NdjsonWorkerError(`a worker thread failed: ${error.message}`, this.#firstLineOf(entry), error)));
    worker.on('messageerror', (error) => this.#fail(new NdjsonWorkerError(`a worker's answer could not be read: ${error.message}`, this.#firstLineOf(entry), error)));
    worker.on('exit', (code) => {
      if (!this.#closed) this.#fail(new NdjsonWorkerError(`a worker thread exited (code ${code}) before the input was validated`, this.#firstLineOf(entry)));
    });
    return entry;
  }

  #leastBusy(): PoolWorker {
    let best = this.#workers[0]!;
    for (const candidate of this.#workers) if (candidate.inFlight.length < best.inFlight.length) best = candidate;
    return best;
  }

  #send(target: PoolWorker, batch: Batch, firstLine: number): void {
    const sequence = this.#nextSequence++;
    this.#firstLines.set(sequence, firstLine);
    target.inFlight.push(sequence);
    this.#lineHolder = batch.endsLine ? undefined : target;
    const message: BatchMessage = { sequence, firstLine, bytes: batch.bytes, endsLine: batch.endsLine };
    target.worker!.postMessage(message, [batch.bytes.buffer as ArrayBuffer]);
  }

  /**
   * Validates a batch in this thread, as a worker would, then lets the workers' answers in: they
   * arrive as events, which a run of batches validated here would otherwise hold back.
   */
  async #validateHere(here: Here, batch: Batch, firstLine: number): Promise<void> {
    const sequence = this.#nextSequence++;
    this.#firstLines.set(sequence, firstLine);
    here.entry.inFlight.push(sequence);
    this.#lineHolder = batch.endsLine ? undefined : here.entry;
    let result: BatchResult;
    try {
      result = here.batches.validate({ sequence, firstLine, bytes: batch.bytes, endsLine: batch.endsLine });
    } catch (error) {
      this.#fail(error);
      throw error;
    }
    // Nothing of the bytes is kept (BatchValidator.validate): the buffer can be filled again now,
    // and what waits for earlier batches is the result alone.
    here.recycle(result.buffer);
    this.#answered(here.entry, { ...result, buffer: NO_BUFFER });
    await new Promise(setImmediate);
  }

  #answered(entry: PoolWorker, result: BatchResult): void {
    if (this.#closed || this.#failure !== undefined) return;
    entry.inFlight.splice(entry.inFlight.indexOf(result.sequence), 1);
    this.#waiting.set(result.sequence, result);
    this.#waitingReported += reportedCount(result);
    for (let next = this.#waiting.get(this.#nextDelivered); next !== undefined; next = this.#waiting.get(this.#nextDelivered)) {
      this.#waiting.delete(this.#nextDelivered);
      this.#waitingReported -= reportedCount(next);
      this.#firstLines.delete(this.#nextDelivered);
      this.#nextDelivered++;
      this.#onResult(next);
      if (this.#closed) return;
      // The records before the one that threw are delivered; nothing after it is.
      if (next.threw !== undefined) {
        this.#fail(new RecordThrewError(next.threw.line, next.threw.error));
        return;
      }
    }
    this.#wake?.();
  }

  #firstLineOf(entry: PoolWorker): number | undefined {
    const sequence = entry.inFlight[0];
    return sequence === undefined ? undefined : this.#firstLines.get(sequence);
  }

  #fail(error: unknown): void {
    if (this.#closed || this.#failure !== undefined) return;
    this.#failure = { error };
    this.#wake?.();
    void this.close();
  }

  /** A failure is thrown to whoever feeds or drains the pool; a pool closed by its owner just takes nothing more. */
  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  #nextEvent(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve();
      };
    });
  }
}

/** Records a result reports, as records or as lines. */
function reportedCount(result: BatchResult): number {
  return result.reported.length + (result.lines?.ordinals.length ?? 0);
}

// --- The reader --------------------------------------------------------------------------------

export interface ParallelReaderOptions {
  /** Worker threads. */
  workers: number;
  /**
   * This thread validates too, whenever every worker has its fill (the CLI's --jobs N is N - 1
   * workers and this thread). Not for a server: a batch validated here holds its event loop.
   */
  thisThread?: boolean;
  batchSize?: number;
  /** Line number of the input's first line (a byte range's): default 1. */
  firstLine?: number;
}

/**
 * NDJSON chunks in, BatchResults out in input order. An input of one batch is validated here
 * with `validator` (the recipe's own, compiled in this thread): starting workers would cost more
 * than it. Workers start at the second batch.
 */
export class ParallelNdjsonReader {
  readonly #validator: Validator;
  readonly #recipe: WorkerRecipe;
  readonly #workers: number;
  readonly #thisThread: boolean;
  readonly #cutter: BatchCutter;
  readonly #onResult: (result: BatchResult) => void;
  #pool: WorkerPool | undefined;
  /** The first batch, kept until a second shows that workers are worth starting. */
  #held: Batch | undefined;
  #nextLine: number;
  #linesRead: number;
  #stopped = false;
  /** The last write, flush or end asked for, settled or not (see #inTurn). */
  #lastTurn: Promise<void> = Promise.resolve();

  constructor(validator: Validator, recipe: WorkerRecipe, options: ParallelReaderOptions, onResult: (result: BatchResult) => void) {
    if (!Number.isSafeInteger(options.workers) || options.workers < 1 || options.workers > MOST_WORKERS) throw new ArgumentRangeError(`workers must be an integer from 1 to ${MOST_WORKERS}, got ${options.workers}`);
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > MOST_BATCH_SIZE) throw new ArgumentRangeError(`batchSize must be an integer from 1 to ${MOST_BATCH_SIZE}, got ${batchSize}`);
    this.#validator = validator;
    this.#recipe = checkedRecipe(recipe);
    this.#workers = options.workers;
    this.#thisThread = options.thisThread ?? false;
    this.#cutter = new BatchCutter(batchSize);
    this.#onResult = onResult;
    this.#nextLine = checkFirstLine(options.firstLine);
    this.#linesRead = this.#nextLine - 1;
  }

  /** Lines whose records have been delivered, blank ones included (those before `firstLine` too). */
  get linesRead(): number {
    return this.#linesRead;
  }

  /** Resolves when the chunk's batches are with workers: await it before the next chunk. */
  write(chunk: string | Uint8Array): Promise<void> {
    return this.#inTurn(async () => {
      for (const batch of this.#cutter.write(chunk)) await this.#dispatch(batch);
    });
  }

  /**
   * Sends the whole lines held so far without waiting for a full batch, the first batch held
   * included (workers start for it): for a source that has gone quiet, a pipe that trickles,
   * whose records would otherwise wait for the batch to fill or the input to end. Resolves when
   * every record sent so far has been delivered, and throws what failed the read: a caller waiting
   * on a quiet source learns now, not at its next chunk, that the read is over.
   */
  flush(): Promise<void> {
    return this.#inTurn(async () => {
      for (const batch of this.#cutter.flush()) await this.#dispatch(batch);
      if (this.#pool === undefined && this.#held !== undefined && !this.#stopped) await this.#startPool();
      await this.#pool?.drain();
    });
  }

  /** Resolves when every record has been delivered. */
  end(): Promise<void> {
    return this.#inTurn(() => this.#end());
  }

  /**
   * Runs `step` after every step asked for before it: a flush from a timer while a write waits
   * for a worker would otherwise send its batch between that write's batches.
   */
  #inTurn(step: () => Promise<void>): Promise<void> {
    const turn = this.#lastTurn.then(step);
    this.#lastTurn = turn.catch(() => undefined);
    return turn;
  }

  async #end(): Promise<void> {
    for (const batch of this.#cutter.end()) await this.#dispatch(batch);
    if (this.#stopped) return;
    if (this.#pool === undefined) {
      if (this.#held !== undefined) this.#validateHere(this.#held);
      return;
    }
    try {
      await this.#pool.drain();
    } finally {
      await this.#pool.close();
    }
  }

  /** Stops the workers; nothing more is delivered. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#pool?.close();
  }

  async #dispatch(batch: Batch): Promise<void> {
    if (this.#stopped) return;
    if (this.#pool === undefined && this.#held === undefined) {
      this.#held = batch;
      return;
    }
    if (this.#pool === undefined) await this.#startPool();
    await this.#submit(batch);
  }

  /** The workers, given the first batch, which was held. */
  async #startPool(): Promise<void> {
    const here = this.#thisThread ? { batches: new BatchValidator(this.#validator, this.#recipe), recycle: (buffer: ArrayBuffer) => this.#cutter.recycle(buffer) } : undefined;
    this.#pool = new WorkerPool(this.#recipe, this.#workers, (result) => this.#deliver(result), here);
    const held = this.#held!;
    this.#held = undefined;
    await this.#submit(held);
  }

  async #submit(batch: Batch): Promise<void> {
    const firstLine = this.#nextLine;
    this.#nextLine += batch.lineFeeds;
    await this.#pool!.submit(batch, firstLine);
  }

  #validateHere(batch: Batch): void {
    const validator = new BatchValidator(this.#validator, this.#recipe);
    const result = validator.validate({ sequence: 0, firstLine: this.#nextLine, bytes: batch.bytes, endsLine: batch.endsLine });
    this.#deliver(result);
    if (result.threw !== undefined) throw new RecordThrewError(result.threw.line, result.threw.error);
  }

  #deliver(result: BatchResult): void {
    if (this.#stopped) return;
    this.#cutter.recycle(result.buffer);
    this.#linesRead = result.linesRead;
    this.#onResult(result);
  }
}
