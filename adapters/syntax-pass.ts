// The syntax pass of the CLI: a first-error validator stops reading a document at its first
// schema violation, so a syntax error after it would go unseen; the pass reads on with the schema
// `true` to report it too. Shared by the CLI's own thread and its --jobs workers, which must give
// the same errors.

import type { OutputUnit, Result, Session, SessionOptions, Validator, ValueResult } from '../src/types.js';
import { JUDGE_TEXT_RANGE, textRangeJudgeOf, type TextRangeJudge } from '../src/session/validator.js';

/**
 * Characters of a piped document (or a split NDJSON line) kept until its verdict, for the syntax
 * pass after a schema error. Past this the pass runs alongside instead: memory stays bounded, and
 * only a document this big pays for a second tokenizer.
 */
const KEPT_PREFIX_LIMIT = 4 * 1024 * 1024;

/**
 * A first-error validator stops reading at a document's first schema violation, so a syntax error
 * after it goes unseen; with every error wanted the engine reads on and reports it itself.
 */
export function needsSyntaxPass(result: Result): boolean {
  return !result.valid && result.errors.length > 0 && result.errors.every((unit) => unit.kind === 'validation');
}

export function withInputErrors(result: Result, inputErrors: readonly OutputUnit[]): Result {
  return inputErrors.length === 0 ? result : { ...result, errors: [...result.errors, ...inputErrors] };
}

/**
 * `validator`, whose documents, when their first error is a schema violation, are also checked for
 * a syntax error by `syntax` (the schema `true`): a whole text at once, a session's chunks through
 * a SyntaxCheckedSession. Documents without a schema violation cost nothing more.
 */
export function withSyntaxPass(validator: Validator, syntax: Validator): Validator {
  const checkText = (result: Result, text: string | Uint8Array): Result => (needsSyntaxPass(result) ? withInputErrors(result, syntax.validateText(text).errors) : result);
  const judgeRange = textRangeJudgeOf(validator);
  return {
    draft: validator.draft,
    allErrors: validator.allErrors,
    changesValues: validator.changesValues,
    warnings: validator.warnings,
    validate: (value) => validator.validate(value),
    validateText: (text) => checkText(validator.validateText(text), text),
    parseText: (text) => checkText(validator.parseText(text), text) as ValueResult,
    // A session asked to parse gives the value as the validator's own session does.
    session: ((options?: SessionOptions) => new SyntaxCheckedSession(validator, syntax, options)) as Validator['session'],
    is: (value): value is unknown => validator.is(value),
    '~standard': validator['~standard'],
    [JUDGE_TEXT_RANGE]:
      judgeRange === undefined
        ? undefined
        : ((text, from, to, parse, bytes) => checkText(judgeRange(text, from, to, parse, bytes), bytes ?? text.slice(from, to))) satisfies TextRangeJudge,
  } as Validator;
}

/**
 * A session that, after a schema violation, reads on with a syntax-only session to report the
 * document's syntax error too. That session must see the document from its start: what was
 * written before the verdict is kept and replayed to it, up to KEPT_PREFIX_LIMIT; past that it
 * runs alongside. `write` returns false only once nothing more can be learnt.
 */
class SyntaxCheckedSession implements Session {
  readonly #schema: Session;
  readonly #syntaxValidator: Validator;
  #kept: (string | Uint8Array)[] = [];
  #keptLength = 0;
  #syntax: Session | undefined;
  #verdict: Result | undefined;
  #result: Result | undefined;

  constructor(validator: Validator, syntax: Validator, options?: SessionOptions) {
    this.#schema = validator.session(options);
    this.#syntaxValidator = syntax;
  }

  get failed(): boolean {
    return this.#schema.failed;
  }

  get bytesRead(): number {
    return this.#schema.bytesRead;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.#verdict !== undefined) return this.#syntax !== undefined && this.#syntax.write(chunk);
    this.#keep(chunk);
    if (this.#schema.write(chunk)) return true;
    this.#verdict = this.#schema.end();
    if (!needsSyntaxPass(this.#verdict)) return false;
    return !this.#startSyntaxPass().failed;
  }

  end(): Result {
    if (this.#result !== undefined) return this.#result;
    const verdict = this.#verdict ?? this.#schema.end();
    this.#result = needsSyntaxPass(verdict) ? withInputErrors(verdict, this.#startSyntaxPass().end().errors) : verdict;
    return this.#result;
  }

  #keep(chunk: string | Uint8Array): void {
    if (this.#syntax !== undefined) {
      this.#syntax.write(chunk);
      return;
    }
    this.#kept.push(chunk);
    this.#keptLength += chunk.length;
    if (this.#keptLength > KEPT_PREFIX_LIMIT) this.#startSyntaxPass();
  }

  /** The syntax session, begun (and given what was kept) if it is not running yet. */
  #startSyntaxPass(): Session {
    if (this.#syntax !== undefined) return this.#syntax;
    const syntax = this.#syntaxValidator.session();
    for (const chunk of this.#kept) if (!syntax.write(chunk)) break;
    this.#kept = [];
    this.#keptLength = 0;
    this.#syntax = syntax;
    return syntax;
  }
}
