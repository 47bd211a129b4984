// `stream-schema validate --jobs N` and `--byte-range START:END`: NDJSON on every core of one
// machine (worker threads, adapters/ndjson-workers.ts), and shards for many (each process given
// the records that begin in its byte range, with their true line numbers). docs/scaling.md says
// how both scale and how shards' outputs merge.

import { closeSync, createReadStream, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Validator } from '../src/types.js';
import { parsePositiveInteger, parseSize, UsageError } from './cli-errors.js';
import { NdjsonRecordReader, type NdjsonRecord } from './ndjson-lines.js';
import { countLineFeeds, DEFAULT_BATCH_SIZE, defaultWorkers, MOST_BATCH_SIZE, MOST_WORKERS, ParallelNdjsonReader, type BatchResult, type LineFormat, type ReportedLines, type WorkerRecipe } from './ndjson-workers.js';

export const JOB_OPTIONS = {
  jobs: { type: 'string', short: 'j' },
  'byte-range': { type: 'string' },
  'batch-size': { type: 'string' },
} as const;

export const JOB_USAGE = `  -j, --jobs <n>            NDJSON: validate on n threads, this one and n - 1 workers
                            (default: the available parallelism; 1: this thread only;
                            at most 257). Output is the same as with 1
      --batch-size <size>   NDJSON bytes handed to a worker at a time (default 256kb, at
                            most 64mb); an input of one batch is validated without workers
      --byte-range <start:end>
                            validate only the records (lines) that begin at a byte in
                            [start, end) of the one NDJSON file given, with their true line
                            numbers (the lines before start are counted first). ":end" and
                            "start:" are ranges from the start and to the end. The outputs of
                            ranges that cover a file, concatenated in order, are its output
`;

const LINE_FEED = 0x0a;
/** Bytes read at a time when counting or looking for line feeds. */
const SCAN_CHUNK_SIZE = 1024 * 1024;

export interface ByteRange {
  start: number;
  /** Exclusive; Infinity for "to the end". */
  end: number;
}

export interface Jobs {
  workers: number;
  batchSize: number;
  byteRange: ByteRange | undefined;
}

export interface JobValues {
  jobs?: string;
  'byte-range'?: string;
  'batch-size'?: string;
}

/** --jobs, --batch-size and --byte-range, checked against the inputs they apply to. */
export function readJobs(values: JobValues, inputs: readonly string[], isNdjson: (input: string) => boolean): Jobs {
  // n jobs are this thread and n - 1 workers.
  const workers = values.jobs === undefined ? defaultWorkers() : parsePositiveInteger('--jobs', values.jobs, MOST_WORKERS + 1);
  const batchSize = values['batch-size'] === undefined ? DEFAULT_BATCH_SIZE : parseSize('--batch-size', values['batch-size'], MOST_BATCH_SIZE);
  const byteRange = values['byte-range'] === undefined ? undefined : parseByteRange(values['byte-range']);
  if (byteRange !== undefined) checkRangedInput(inputs, isNdjson);
  return { workers, batchSize, byteRange };
}

function parseByteRange(text: string): ByteRange {
  const match = /^(\d*):(\d*)$/.exec(text);
  const start = match === null ? NaN : match[1] === '' ? 0 : Number(match[1]);
  const end = match === null ? NaN : match[2] === '' ? Infinity : Number(match[2]);
  const integers = Number.isSafeInteger(start) && (end === Infinity || Number.isSafeInteger(end));
  if (!integers || end < start) throw new UsageError('cli.byteRange', `--byte-range must be START:END, byte offsets with START <= END (either may be left out), got "${text}"`);
  return { start, end };
}

/** A byte range is a part of one file: of a pipe there is no byte START to go to, of a JSON document no record to begin there. */
function checkRangedInput(inputs: readonly string[], isNdjson: (input: string) => boolean): void {
  const [input] = inputs;
  if (inputs.length !== 1 || input === '-') throw new UsageError('cli.byteRange', '--byte-range needs exactly one input file (not stdin)');
  if (!isNdjson(input!)) throw new UsageError('cli.byteRange', `--byte-range applies to NDJSON (use --ndjson, or a .ndjson/.jsonl file), not to one JSON document: ${input}`);
}

/**
 * Bytes read at a time from an NDJSON file: a batch at a time for workers, whose reading thread
 * then handles a quarter of the chunks; `single` for this thread alone.
 */
export function readSizeFor(jobs: Jobs, single: number): number {
  return jobs.workers === 1 ? single : Math.max(single, jobs.batchSize);
}

// --- Reading -------------------------------------------------------------------------------

/** An NDJSON input's bytes, and the number of its first line. */
export type NdjsonSource = FileSource | TricklingSource;

interface FileSource {
  /** Each chunk may be overwritten by the next: the readers copy what they keep (LineSplitter, BatchCutter). */
  chunks: AsyncIterable<Uint8Array>;
  firstLine: number;
  trickles: false;
}

/** Not a regular file (stdin, a pipe): it may send a few lines and then nothing for a while, and is destroyed to stop waiting for it. */
interface TricklingSource {
  chunks: Readable;
  firstLine: number;
  trickles: true;
}

/** The bytes of `input` that `jobs` asks for: its byte range, else all of it. `file` is its stat, undefined for stdin. */
export async function ndjsonSource(input: string, file: Stats | undefined, jobs: Jobs, singleReadSize: number): Promise<NdjsonSource> {
  const readSize = readSizeFor(jobs, singleReadSize);
  if (jobs.byteRange !== undefined) {
    // A pipe's size reads 0: its range would be empty, and the input pass unread.
    if (file?.isFile() !== true) throw new UsageError('cli.byteRange', `--byte-range needs a regular file, which it can read from byte START: ${input} is not one (a pipe, a device or a directory)`);
    return openByteRange(input, jobs.byteRange, readSize);
  }
  if (file?.isFile() === true) return { chunks: fileChunks(input, 0, Infinity, readSize), firstLine: 1, trickles: false };
  return { chunks: input === '-' ? process.stdin : createReadStream(input, { highWaterMark: readSize }), firstLine: 1, trickles: true };
}

/**
 * Bytes `start` to `end` (exclusive) of a regular file, read into one buffer again and again: a
 * stream's fresh buffer for each read, and its round trip through the thread pool, cost more than
 * the few microseconds a read from the page cache blocks this thread.
 */
async function* fileChunks(file: string, start: number, end: number, size: number): AsyncGenerator<Uint8Array> {
  const descriptor = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(size);
    for (let position = start; position < end; ) {
      const bytesRead = readSync(descriptor, buffer, 0, Math.min(size, end - position), position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    closeSync(descriptor);
  }
}

// --- Byte ranges ---------------------------------------------------------------------------

/**
 * The lines of `file` that begin in `range`: from the first line start at or after START (a line
 * starts at byte 0 or after a LF) to the LF that ends the line holding byte END - 1. Every line
 * begins in exactly one of a set of ranges that cover the file, whatever bytes the cuts fall on
 * (mid-line, mid-character), so their outputs concatenate to the whole file's.
 */
export async function openByteRange(file: string, range: ByteRange, readSize: number): Promise<NdjsonSource> {
  const handle = await open(file, 'r');
  let begin: number;
  let stop: number;
  let firstLine: number;
  try {
    const size = (await handle.stat()).size;
    begin = range.start === 0 ? 0 : await lineFeedAtOrAfter(handle, range.start - 1, size) + 1;
    stop = begin >= Math.min(range.end, size) ? begin : await lineFeedAtOrAfter(handle, range.end - 1, size) + 1;
    firstLine = begin === 0 ? 1 : (await lineFeedsBefore(handle, begin)) + 1;
  } finally {
    await handle.close();
  }
  return { chunks: fileChunks(file, begin, stop, readSize), firstLine, trickles: false };
}

/** Position of the first LF at or after `position`; `size - 1` when there is none (the last line runs to the end). */
async function lineFeedAtOrAfter(handle: FileHandle, position: number, size: number): Promise<number> {
  const buffer = Buffer.allocUnsafe(SCAN_CHUNK_SIZE);
  for (let at = position; at < size; ) {
    const { bytesRead } = await handle.read(buffer, 0, SCAN_CHUNK_SIZE, at);
    if (bytesRead === 0) break;
    const found = buffer.subarray(0, bytesRead).indexOf(LINE_FEED);
    if (found !== -1) return at + found;
    at += bytesRead;
  }
  return size - 1;
}

/** LFs in the first `length` bytes: the lines before a range, read in one pass without decoding. */
async function lineFeedsBefore(handle: FileHandle, length: number): Promise<number> {
  const buffer = Buffer.allocUnsafe(SCAN_CHUNK_SIZE);
  let count = 0;
  for (let at = 0; at < length; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(SCAN_CHUNK_SIZE, length - at), at);
    if (bytesRead === 0) break;
    count += countLineFeeds(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
  return count;
}

// --- Feeding records to the CLI ----------------------------------------------------------------

/** What the CLI feeds an NDJSON input's chunks to: this thread's reader, or the workers'. */
export interface RecordFeed {
  write(chunk: Uint8Array): void | Promise<void>;
  end(): void | Promise<void>;
  stop(): void;
  /** Workers only: send the whole lines held so far, for an input gone quiet (ParallelNdjsonReader.flush). */
  flush?(): Promise<void>;
}

export interface FeedOptions {
  validator: Validator;
  /** Workers send the invalid records as the CLI's lines: the recipe says how to write them. */
  recipe: WorkerRecipe & { lines: LineFormat };
  jobs: Jobs;
  firstLine: number;
  maxLineLength: number | undefined;
}

/**
 * What the feed delivers, in input order: `onRecord` for each record read in this thread; from
 * workers, `onLines` for each invalid record (its units `from` to `to` of the batch's lines), and
 * `onValid` with the count of the valid records between them, which workers do not send.
 */
export interface FeedCallbacks {
  onRecord(record: NdjsonRecord): void;
  onLines(lines: ReportedLines, from: number, to: number): void;
  onValid(count: number): void;
}

/** The feed for `jobs`: with one job, NdjsonRecordReader in this thread; else this thread and workers, which send their invalid records as lines (WorkerRecipe.lines). */
export function recordFeed(options: FeedOptions, { onRecord, onLines, onValid }: FeedCallbacks): RecordFeed {
  const { validator, jobs, firstLine, maxLineLength } = options;
  if (jobs.workers === 1) return new NdjsonRecordReader(validator, { maxLineLength, firstLine }, onRecord);
  let stopped = false;
  const deliver = (result: BatchResult): void => {
    const { ordinals, units } = result.lines!;
    let counted = 0;
    let unit = 0;
    for (let i = 0; i < ordinals.length; i++) {
      if (stopped) return;
      onValid(ordinals[i]! - counted);
      counted = ordinals[i]! + 1;
      onLines(result.lines!, unit, (unit += units[i]!));
    }
    if (!stopped) onValid(result.records - counted);
  };
  // n jobs: this thread, which has nothing else to do, and n - 1 workers.
  const reader = new ParallelNdjsonReader(validator, options.recipe, { workers: jobs.workers - 1, thisThread: true, batchSize: jobs.batchSize, firstLine }, deliver);
  return {
    write: (chunk) => reader.write(chunk),
    end: () => reader.end(),
    flush: () => reader.flush(),
    stop: () => {
      stopped = true;
      void reader.stop();
    },
  };
}
