// One JSON body in flight, fed chunk by chunk, with nothing but Uint8Array and the validator: the
// byte limit, the byte order mark, body-parser's `strict` first byte, the session, and the refusal
// at the first byte that makes the body certainly bad. The Node middleware (adapters/http-body.ts)
// and the web front door (adapters/web.ts) both read bodies through it.

import type {Result, Session, SessionOptions, Validator} from '../src/types.js';
import {HANDS_ON_VALUE} from '../src/session/validator.js';
import {BOM, LeadingBom, errorFromResult, sizeInvalid, strictStart, tooLarge, type HttpError} from './http-errors.js';

export interface JsonBodySettings {
  /** Most bytes to accept; Infinity for no limit. */
  readonly limit: number;
  /** Only an object or an array at the top level (body-parser's `strict`). */
  readonly strict: boolean;
  readonly invalidStatus: number;
  /** Feed on after the first error, to report every one (within `limit`). */
  readonly readToEnd: boolean;
  /**
   * Keep the bytes, for the value (JSON.parse of them) or a later look at the whole body. Bodies
   * kept have that value handed on: their numbers are judged as its doubles (HANDS_ON_VALUE).
   */
  readonly keepText: boolean;
}

/** UTF-8 as the session decodes it: malformed sequences become U+FFFD; a BOM stays in the text. */
const utf8 = new TextDecoder('utf-8', {ignoreBOM: true});

export class JsonBody {
  readonly #validator: Validator;
  readonly #settings: JsonBodySettings;
  /** The body's size when known before reading it (an identity Content-Length). */
  readonly #length: number | undefined;
  /** Made at the first chunk that is not the whole body (see #isWholeBody). */
  #session: Session | undefined;
  /** Body bytes so far, counted against `limit`. */
  #received = 0;
  /** Bytes passed on to the session (a byte order mark is not). */
  #fed = 0;
  /** The same bytes, when `keepText`. */
  readonly #text: Uint8Array[] = [];
  /** A leading UTF-8 BOM, which the session is not given. */
  readonly #bom = new LeadingBom();
  #awaitingFirstByte: boolean;
  /** Sessions assemble the value where the validator changes it (Validator.changesValues). */
  readonly #sessionOptions: SessionOptions;

  constructor(validator: Validator, settings: JsonBodySettings, length?: number) {
    this.#validator = validator;
    this.#sessionOptions = {parse: validator.changesValues, [HANDS_ON_VALUE]: settings.keepText} as SessionOptions;
    this.#settings = settings;
    this.#length = length;
    this.#awaitingFirstByte = settings.strict;
  }

  /** The validator changes values (Validator.changesValues): the value is not the bytes as sent. */
  get changesValues(): boolean {
    return this.#validator.changesValues;
  }

  /** Body bytes read so far. */
  get received(): number {
    return this.#received;
  }

  /** Every byte of the announced length, and no more, has been read: nothing of the body is left unread. */
  get complete(): boolean {
    return this.#length !== undefined && this.#received === this.#length;
  }

  /** Feeds the next chunk: the refusal once the body is certainly bad, after which it takes no more. */
  write(chunk: Uint8Array): HttpError | undefined {
    const allowed = this.#settings.limit - this.#received;
    this.#received += chunk.length;
    // Bytes past the announced length would be judged apart from the body held whole before them,
    // while its value is read from all of them: the length is a promise the body must keep.
    if (this.#length !== undefined && this.#received > this.#length) return sizeInvalid(this.#length, this.#received);
    if (chunk.length <= allowed) return this.#feed(chunk);
    // The bytes before the limit may already hold the first offending one: that is the answer.
    const refusal = allowed > 0 ? this.#feed(chunk.subarray(0, allowed)) : undefined;
    return refusal ?? tooLarge(this.#settings.limit, this.#received);
  }

  /**
   * The body ended: its verdict. With `withValue`, a valid body held whole gets its value from
   * Validator.parseText; otherwise the value, if wanted, is JSON.parse of `text()`.
   */
  end(withValue: boolean): Result {
    // A validator that changes values gives the value itself: JSON.parse of the text would hand on
    // the document as sent, not the one judged.
    withValue ||= this.#validator.changesValues;
    if (this.#heldWhole()) {
      const bytes = this.#wholeBytes();
      return withValue ? this.#validator.parseText(bytes) : this.#validator.validateText(bytes);
    }
    const session = (this.#session ??= this.#validator.session(this.#sessionOptions));
    const held = this.#bom.held();
    if (held.length > 0) session.write(held);
    return session.end();
  }

  /** The refusal of a body that ended short of its announced length, if it did (see `write`). */
  endedShort(): HttpError | undefined {
    return this.#length !== undefined && this.#received < this.#length ? sizeInvalid(this.#length, this.#received) : undefined;
  }

  /** The body as text, past a leading BOM (only with `keepText`). */
  text(): string {
    return utf8.decode(this.#wholeBytes());
  }

  /** The body's bytes as they came, a leading BOM and the start of one included (only with `keepText`). */
  asSent(): Uint8Array {
    const start = this.#bom.skipped ? Uint8Array.from(BOM) : new Uint8Array(0);
    return concat([start, ...this.#text, this.#bom.held()]);
  }

  /** The bytes fed, past a leading BOM (only with `keepText`). */
  #wholeBytes(): Uint8Array {
    return this.#text.length === 1 ? this.#text[0]! : concat(this.#text);
  }

  #feed(chunk: Uint8Array): HttpError | undefined {
    const text = this.#bom.strip(chunk);
    if (text.length === 0) return undefined;
    this.#fed += text.length;
    if (this.#settings.keepText) this.#text.push(text);
    if (this.#awaitingFirstByte) {
      const refusal = this.#checkFirstByte(text);
      if (refusal !== undefined) return refusal;
    }
    // The whole body in one chunk: there is nothing to be early for, and `end` judges it at once.
    if (this.#isWholeBody(text)) return undefined;
    const session = (this.#session ??= this.#validator.session(this.#sessionOptions));
    if (session.write(text) || this.#settings.readToEnd) return undefined;
    return errorFromResult(session.end(), this.#settings.invalidStatus);
  }

  /** `text` is the first chunk, past any BOM, and the announced length says nothing follows. */
  #isWholeBody(text: Uint8Array): boolean {
    return this.#settings.keepText && this.#bom.decided && this.#fed === text.length && this.#length === this.#received;
  }

  #heldWhole(): boolean {
    return this.#session === undefined && this.#fed > 0;
  }

  #checkFirstByte(text: Uint8Array): HttpError | undefined {
    const start = strictStart(text, this.#fed - text.length);
    if (start === undefined) return undefined;
    this.#awaitingFirstByte = false;
    return start ?? undefined;
  }
}

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const whole = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.length;
  }
  return whole;
}
