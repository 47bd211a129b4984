// compile() and the Validator it returns: value mode, text, and sessions over one compiled schema.

import {compileSchema} from '../compile/compile.js';
import {InputError, NO_POSITION, inputErrorUnit} from '../output/errors.js';
import {Evaluator} from '../engine/evaluator.js';
import {KeyPlans} from '../engine/keyPlan.js';
import type {SchemaNode} from '../schema/node.js';
import {CheckerCache, PASS, TextChecker} from '../engine/checker.js';
import {defaultLimits} from '../json/tokenizer.js';
import type {CompileOptions, Draft, Limits, Result, Session, SessionOptions, Validator} from '../types.js';
import {walkValue} from '../json/walker.js';
import {StreamSession, verdict} from './session.js';

/** Compile a schema once. Throws SchemaError when the schema is broken. */
export function compile(schema: unknown, options: CompileOptions = {}): Validator {
  const {root, draft} = compileSchema(schema, options);
  return new CompiledValidator(root, draft, options.allErrors ?? false, {...defaultLimits, ...options.limits});
}

export class CompiledValidator implements Validator {
  /**
   * validate() and validateText() finish within the call, so they can share one evaluator and its
   * frames (a third of the time on small documents went to setting up a fresh one).
   */
  private readonly shared: Evaluator;
  /** The fast verdict of validateText and validate (src/textCheck.ts), and the shapes it shares with sessions' checkers. */
  private readonly textChecker: TextChecker;
  private readonly checkerCache = new CheckerCache();
  /** What the evaluators make of property names, per node (src/engine/keyPlan.ts). */
  private readonly keyPlans = new KeyPlans();

  constructor(
    private readonly root: SchemaNode,
    readonly draft: Draft,
    readonly allErrors: boolean,
    private readonly limits: Required<Limits>,
  ) {
    this.shared = new Evaluator(root, allErrors, this.keyPlans);
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
    const evaluator = new Evaluator(this.root, this.allErrors, this.keyPlans);
    const parse = options.parse ?? false;
    // Member values that pass can skip the evaluator (src/memberSink.ts); not when every error is
    // wanted, nor when the value is assembled from the tokens.
    const members = !parse && !this.allErrors && this.checkerCache.usable;
    return new StreamSession(evaluator, this.limits, parse, members ? () => new TextChecker(this.root, evaluator, this.limits, this.checkerCache) : undefined);
  }

  /** A fresh evaluator, for a document given as tokens (see `tokenValidator`). */
  evaluator(): Evaluator {
    return new Evaluator(this.root, this.allErrors, this.keyPlans);
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
