// A session: one document written in chunks of bytes or text, decoded, tokenized and evaluated as
// it arrives (docs/architecture.md).

import {Assembler, TeeSink} from '../json/assembler.js';
import {InputError, inputErrorUnit} from '../output/errors.js';
import type {Evaluator} from '../engine/evaluator.js';
import type {TextChecker} from '../engine/checker.js';
import {MemberSink, memberValues} from './memberSink.js';
import {Tokenizer} from '../json/tokenizer.js';
import type {Limits, Result, Session, TokenSink} from '../types.js';
import {ChunkDecoder} from '../json/utf8.js';

export function verdict(evaluator: Evaluator, inputError: InputError | undefined): Result {
  const errors = evaluator.root.failed && evaluator.root.errors !== null ? evaluator.root.errors.slice() : [];
  if (inputError !== undefined) errors.push(inputErrorUnit(inputError));
  return {valid: errors.length === 0 && !evaluator.root.failed, errors};
}

/** Bytes decoded at a time by a session (see ChunkDecoder). */
const DECODE_SLICE = 8192;

export class StreamSession implements Session {
  private readonly tokenizer: Tokenizer;
  private readonly assembler: Assembler | undefined;
  private readonly decoder = new ChunkDecoder(DECODE_SLICE);
  private inputError: InputError | undefined;
  /** Makes the checker for member values judged apart, until a MemberSink is set up (see judgeMembersApart). */
  private newChecker: (() => TextChecker) | undefined;
  private result: Result | undefined;
  /** The tokenizer saw the whole document (it was not stopped early). */
  private complete = false;

  constructor(
    private readonly evaluator: Evaluator,
    limits: Required<Limits>,
    parse: boolean,
    /** Makes the checker for member values judged apart (src/memberSink.ts); none: the evaluator sees all. */
    newChecker?: () => TextChecker,
  ) {
    this.assembler = parse ? new Assembler() : undefined;
    this.newChecker = newChecker;
    const sink: TokenSink = this.assembler === undefined ? evaluator : new TeeSink(evaluator, this.assembler);
    this.tokenizer = new Tokenizer(sink, limits);
    evaluator.reset(this.tokenizer);
  }

  /**
   * The tokens go through a MemberSink from the first chunk long enough for a member value to be
   * judged apart in it (memberValues.worthIt): small documents in small chunks never pay for it.
   */
  private judgeMembersApart(length: number): void {
    if (this.newChecker === undefined || length < memberValues.worthIt || this.tokenizer.stopped) return;
    const members = new MemberSink(this.evaluator, this.newChecker);
    this.newChecker = undefined;
    members.attach(this.tokenizer);
    this.tokenizer.redirect(members);
  }

  get failed(): boolean {
    return this.inputError !== undefined || this.evaluator.failed;
  }

  get bytesRead(): number {
    return this.tokenizer.bytesRead;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.result !== undefined || this.tokenizer.stopped) return !this.failed;
    this.judgeMembersApart(typeof chunk === 'string' ? chunk.length : chunk.byteLength);
    if (typeof chunk === 'string') {
      // Bytes still held before this text are an unfinished character, which ends here.
      const held = this.decoder.flush();
      this.guard(() => {
        if (held !== '') this.tokenizer.write(held);
        if (!this.tokenizer.stopped) this.tokenizer.write(chunk);
        this.tokenizer.settleMark();
      });
      return !this.failed;
    }
    const decoder = this.decoder;
    decoder.start(chunk);
    for (let text = decoder.next(); text !== undefined && !this.tokenizer.stopped; text = decoder.next()) {
      if (text !== '') this.guard(() => this.tokenizer.write(text));
    }
    this.guard(() => this.tokenizer.settleMark());
    return !this.failed;
  }

  end(): Result {
    if (this.result !== undefined) return this.result;
    if (!this.tokenizer.stopped) {
      const rest = this.decoder.flush();
      this.guard(() => {
        if (rest !== '') this.tokenizer.write(rest);
        if (this.tokenizer.stopped) return;
        this.tokenizer.end();
        this.complete = true;
      });
    }
    const result = verdict(this.evaluator, this.inputError);
    if (this.assembler !== undefined && this.complete) result.value = this.assembler.value;
    this.result = result;
    return result;
  }

  private guard(work: () => void): void {
    try {
      work();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.inputError = error;
      this.tokenizer.stop();
    }
  }
}
