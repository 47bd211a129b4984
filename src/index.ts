// stream-schema: validate JSON against JSON Schema while the bytes arrive.
// compile() loads the schema once; a Validator checks parsed values (value mode) or JSON text
// (streaming mode) with the same keyword code.

import {Assembler, TeeSink} from './assembler.js';
import {compileSchema} from './compile.js';
import {InputError, NO_POSITION} from './errors.js';
import {Evaluator} from './evaluator.js';
import type {SchemaNode} from './schema.js';
import {MemberSink, memberValues} from './memberSink.js';
import {CheckerCache, PASS, TextChecker} from './textCheck.js';
import {Tokenizer, defaultLimits} from './tokenizer.js';
import type {CompileOptions, Draft, Limits, OutputUnit, Result, Session, SessionOptions, TokenSink, Validator} from './types.js';
import {ChunkDecoder} from './utf8.js';
import {walkValue} from './walker.js';

export {SchemaError, InputError} from './errors.js';
export type {InputPosition, UnresolvedReference} from './errors.js';
export type * from './types.js';
export {defaultLimits} from './tokenizer.js';

/** Compile a schema once. Throws SchemaError when the schema is broken. */
export function compile(schema: unknown, options: CompileOptions = {}): Validator {
  const {root, draft} = compileSchema(schema, options);
  return new CompiledValidator(root, draft, options.allErrors ?? false, {...defaultLimits, ...options.limits});
}

/** An input problem (malformed JSON, a limit) as an output unit, distinguishable by `kind`. */
function inputErrorUnit(error: InputError): OutputUnit {
  const unit: OutputUnit = {
    kind: error.kind,
    keyword: error.kind,
    keywordLocation: '',
    instanceLocation: error.instanceLocation,
    error: error.message,
    params: {code: error.code},
  };
  if (error.offset >= 0) {
    unit.offset = error.offset;
    unit.line = error.line;
    unit.column = error.column;
  }
  return unit;
}

function verdict(evaluator: Evaluator, inputError: InputError | undefined): Result {
  const errors = evaluator.root.failed && evaluator.root.errors !== null ? evaluator.root.errors.slice() : [];
  if (inputError !== undefined) errors.push(inputErrorUnit(inputError));
  return {valid: errors.length === 0 && !evaluator.root.failed, errors};
}

class CompiledValidator implements Validator {
  /**
   * validate() and validateText() finish within the call, so they can share one evaluator and its
   * frames (a third of the time on small documents went to setting up a fresh one).
   */
  private readonly shared: Evaluator;
  /** The fast verdict of validateText and validate (src/textCheck.ts), and the shapes it shares with sessions' checkers. */
  private readonly textChecker: TextChecker;
  private readonly checkerCache = new CheckerCache();

  constructor(
    private readonly root: SchemaNode,
    readonly draft: Draft,
    readonly allErrors: boolean,
    private readonly limits: Required<Limits>,
  ) {
    this.shared = new Evaluator(root, allErrors);
    this.textChecker = new TextChecker(root, this.shared, limits, this.checkerCache);
  }

  validate(value: unknown): Result {
    // Most values pass: the fast verdict says so without events; otherwise the events say why.
    if (this.textChecker.usable && this.textChecker.checkValue(value) === PASS) return {valid: true, errors: []};
    const evaluator = this.shared;
    evaluator.reset(null);
    try {
      if (!evaluator.stopped) walkValue(value, evaluator, this.limits);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return verdict(evaluator, error);
    }
    return verdict(evaluator, undefined);
  }

  validateText(text: string | Uint8Array): Result {
    // Most documents pass: the text checker says so without runs; otherwise the evaluator says why.
    if (this.textChecker.usable) {
      const source = typeof text === 'string' ? text : decode(text);
      if (this.textChecker.check(source) === PASS) return {valid: true, errors: []};
      return this.evaluate(source);
    }
    return this.evaluate(text);
  }

  /** validateText's verdict and errors from the evaluator, which finds where the document fails. */
  private evaluate(text: string | Uint8Array): Result {
    const session = new StreamSession(this.shared, this.limits, false);
    session.write(text);
    const result = session.end();
    this.shared.release();
    return result;
  }

  parseText(text: string | Uint8Array): Result {
    const source = typeof text === 'string' ? text : decode(text);
    // For a valid document whose value is wanted anyway: the text checker's pass, then JSON.parse
    // once. Anything else gets validateText's verdict and errors.
    if (this.textChecker.usable && this.textChecker.check(source) === PASS) return withValue({valid: true, errors: []}, source);
    const result = this.evaluate(source);
    return result.valid ? withValue(result, source) : result;
  }

  session(options: SessionOptions = {}): Session {
    const evaluator = new Evaluator(this.root, this.allErrors);
    const parse = options.parse ?? false;
    // Member values that pass can skip the evaluator (src/memberSink.ts); not when every error is
    // wanted, nor when the value is assembled from the tokens.
    const members = !parse && !this.allErrors && this.checkerCache.usable;
    return new StreamSession(evaluator, this.limits, parse, members ? () => new TextChecker(this.root, evaluator, this.limits, this.checkerCache) : undefined);
  }

  /** A fresh evaluator, for a document given as tokens (see `tokenValidator`). */
  evaluator(): Evaluator {
    return new Evaluator(this.root, this.allErrors);
  }
}

/** UTF-8 bytes as text (malformed sequences become U+FFFD, as a session's decoding does). */
function decode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * A valid result with its value: JSON.parse of text the tokenizer accepted, which may start with a
 * byte order mark (RFC 8259 §8.1). The tokenizer accepts what JSON.parse does, but should the two
 * ever disagree, the text is refused as malformed rather than the call throwing: the verdict and
 * the value must agree.
 */
function withValue(result: Result, source: string): Result {
  try {
    result.value = JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
    return result;
  } catch {
    // V8's message quotes the text, which must never be echoed back to whoever sent it.
    const refusal = new InputError('syntax', 'syntax.parse', 'JSON.parse refused text the validator accepted', NO_POSITION);
    return {valid: false, errors: [inputErrorUnit(refusal)]};
  }
}

/** Bytes decoded at a time by a session (see ChunkDecoder). */
const DECODE_SLICE = 8192;

class StreamSession implements Session {
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

/** A stream-json token: `{name, value}` (packed or streamed values). */
export type StreamJsonToken = {name: string; value?: unknown};

/** Validates the tokens of one document as a stream-json parser emits them (see `tokenValidator`). */
export interface TokenValidator {
  /** The next token; false once the document is certainly invalid (later tokens are ignored then). */
  push(token: StreamJsonToken): boolean;
  /** The document's tokens have all been pushed: its verdict. */
  end(): Result;
}

/**
 * One document's validation from stream-json's tokens, with packed values, streamed values or
 * both: what `stream-schema/stream-json`'s `tokenConsumer` puts in a stream-chain pipeline.
 * Malformed JSON is the parser's to report; a repeated key is still refused.
 */
export function tokenValidator(validator: Validator): TokenValidator {
  if (!(validator instanceof CompiledValidator)) throw new TypeError('tokenValidator needs a validator made by compile()');
  const evaluator = validator.evaluator();
  evaluator.reset(null, true);
  let pieces = '';
  let pending: 'string' | 'key' | 'number' | undefined;
  let inputError: InputError | undefined;
  const deliverPending = (): void => {
    if (pending === 'string') evaluator.stringValue(pieces);
    else if (pending === 'key') evaluator.keyValue(pieces);
    else if (pending === 'number') evaluator.numberValue(pieces);
    pending = undefined;
    pieces = '';
  };
  const deliver = (token: StreamJsonToken): void => {
    switch (token.name) {
      case 'startString':
      case 'startKey':
      case 'startNumber':
        deliverPending();
        pieces = '';
        return;
      case 'stringChunk':
      case 'numberChunk':
        pieces += token.value as string;
        return;
      case 'endString':
        pending = 'string';
        return;
      case 'endKey':
        pending = 'key';
        return;
      case 'endNumber':
        pending = 'number';
        return;
      case 'stringValue':
      case 'keyValue':
      case 'numberValue':
        // The packed value supersedes the pieces streamed just before it.
        pending = undefined;
        pieces = '';
        evaluator[token.name](token.value as string);
        return;
      case 'startObject':
      case 'endObject':
      case 'startArray':
      case 'endArray':
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        deliverPending();
        evaluator[token.name]();
        return;
    }
  };
  const guarded = (work: () => void): void => {
    try {
      work();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      inputError ??= error;
    }
  };
  return {
    push(token: StreamJsonToken): boolean {
      if (inputError === undefined && !(evaluator.failed && !validator.allErrors)) guarded(() => deliver(token));
      return inputError === undefined && !evaluator.failed;
    },
    end(): Result {
      if (inputError === undefined) guarded(deliverPending);
      return verdict(evaluator, inputError);
    },
  };
}
