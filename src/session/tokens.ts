// Validation of a document given as stream-json tokens (adapters/stream-json.ts). Tokens can come
// from anywhere, not only from stream-json's parser, so they are held to what the Tokenizer holds
// text to: the limits (src/json/limits.ts), JSON's number grammar (RFC 8259 §6), and the protocol's
// own shape. Anything else is refused, never passed unread.

import {ArgumentError, InputError, NO_POSITION} from '../output/errors.js';
import {isNumberText} from '../json/grammar.js';
import {exceeded, inexact, type ReadLimit} from '../json/limits.js';
import {isWithinDoubleRange} from '../json/numbers.js';
import type {Result, Validator} from '../types.js';
import {CompiledValidator} from './validator.js';
import {verdict} from './document.js';

/** The tokens that end a value (a streamed string's or number's end too, before its packed value). */
const VALUE_ENDS = new Set(['endObject', 'endArray', 'endString', 'endNumber', 'stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue']);

/** What streamed pieces a packed value's token stands for. */
const PACKED_KIND = {stringValue: 'string', keyValue: 'key', numberValue: 'number'} as const;

type PieceKind = 'string' | 'key' | 'number';

/** The limit on the text of a string, key or number, streamed or packed: its error, and the bound. */
const TEXT_LIMITS: Readonly<Record<PieceKind, {readonly code: ReadLimit; readonly bound: 'maxStringLength' | 'maxKeyLength' | 'maxNumberLength'}>> = {
  string: {code: 'limit.string', bound: 'maxStringLength'},
  key: {code: 'limit.key', bound: 'maxKeyLength'},
  number: {code: 'limit.number', bound: 'maxNumberLength'},
};

/** A value streamed in pieces: what starts it, and the tokens that carry and end it. */
interface Piece {
  readonly kind: PieceKind;
  readonly chunk: string;
  readonly end: string;
}

const PIECES: Readonly<Record<string, Piece>> = {
  startString: {kind: 'string', chunk: 'stringChunk', end: 'endString'},
  startKey: {kind: 'key', chunk: 'stringChunk', end: 'endKey'},
  startNumber: {kind: 'number', chunk: 'numberChunk', end: 'endNumber'},
};

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
 * Malformed JSON is the parser's to report; a repeated key is still refused, and so are tokens
 * that break the protocol or the validator's limits (`syntax.tokens`, `limit.*`, at token n).
 */
export function tokenValidator(validator: Validator): TokenValidator {
  if (!(validator instanceof CompiledValidator)) throw new ArgumentError('tokenValidator needs a validator made by compile()');
  const document = validator.document();
  const limits = document.limits;
  // The tokens go to `sink`, which is the evaluator unless the value options amend them first.
  const sink = document.beginTokens();
  const evaluator = document.evaluator;
  /** Tokens pushed so far: an error says at which one it came. */
  let count = 0;
  let pieces = '';
  /** What the streamed pieces gathered in `pieces` are, once their end came and until delivered. */
  let pending: PieceKind | undefined;
  /**
   * The value being streamed in pieces, from its start token to its end: nothing but its own
   * chunks may come between, as a string may have been judged at its start (TokenSink.stringBegins).
   */
  let piece: Piece | undefined;
  /** The objects and arrays open, innermost last, with the keys each object has had. */
  const open: ('object' | 'array')[] = [];
  const keys: number[] = [];
  /** The innermost object has the key of its next value: keys and values alternate in it. */
  let keyed = false;
  /** The token before: whether it ended a value (valueEnded). */
  let previous = '';
  let inputError: InputError | undefined;
  const refuse = (kind: 'syntax' | 'limit', code: string, message: string): never => {
    throw new InputError(kind, code, `${message}, at token ${count}`, NO_POSITION);
  };
  const refuseTokens = (message: string): never => refuse('syntax', 'syntax.tokens', message);
  /**
   * The document's value has ended: no container is open and the token before ended a value
   * (the streamed pieces of a string or number may still be followed by their packed value).
   * Any other token after it is a second document, refused: its values would go unjudged.
   */
  const valueEnded = (): boolean => open.length === 0 && VALUE_ENDS.has(previous);
  const deliverPending = (): void => {
    if (pending === 'string') sink.stringValue(pieces);
    else if (pending === 'key') sink.keyValue(pieces);
    else if (pending === 'number') sink.numberValue(pieces);
    pending = undefined;
    pieces = '';
  };
  /** A whole number's text, streamed or packed: JSON's grammar, then the limits on its value. */
  const checkNumber = (text: string): void => {
    if (!isNumberText(text)) refuseTokens(`A number token whose text is not a JSON number`);
    if (limits.inexactNumbers === 'reject' && !isWithinDoubleRange(text)) refuse('limit', 'limit.number.inexact', inexact(text));
  };
  /** Text too long for its limit, as the Tokenizer refuses it (a streamed one before the rest comes). */
  const checkLength = (text: string, kind: PieceKind): void => {
    const {code, bound} = TEXT_LIMITS[kind];
    if (text.length > limits[bound]) refuse('limit', code, exceeded(code, limits[bound]));
  };
  const deliver = (token: StreamJsonToken): void => {
    if (typeof token !== 'object' || token === null || typeof token.name !== 'string') refuseTokens(`Not a token of stream-json's protocol (${describe(token)})`);
    const name = token.name;
    if (piece !== undefined && name !== piece.chunk && name !== piece.end) refuseTokens(`A ${name} token inside a ${piece.kind}, before its ${piece.end}`);
    // The packed value of the pieces just streamed (stream-json sends both where asked to) is the
    // same value again, not the next one.
    const repeats = pending !== undefined && PACKED_KIND[name as keyof typeof PACKED_KIND] === pending;
    // A value streamed in pieces comes before the token after it, as in text: a key before the
    // limit its value breaks, a value before the next key.
    if (pending !== undefined && !repeats) {
      deliverPending();
      if (evaluator.stopped) return;
    }
    if (valueEnded() && !repeats) refuse('syntax', 'syntax.trailing', `A ${name} token came after the document's value ended`);
    followShape(name, repeats);
    previous = name;
    deliverToken(name, token.value, repeats);
  };
  const text = (name: string, value: unknown): string => (typeof value === 'string' ? value : refuseTokens(`A ${name} token whose value is not a string`));
  /**
   * Keys and values must alternate in an object, and containers close as they opened. A parser
   * set to emit no keys (neither packKeys nor streamKeys) gives values with no key: their
   * subschemas could not be found, so they are refused rather than passed unread.
   */
  const followShape = (name: string, repeats: boolean): void => {
    const top = open.length === 0 ? undefined : open[open.length - 1];
    const refuseShape = (what: string): never => refuseTokens(`${what} (a ${name} token)`);
    const startsKey = name === 'startKey' || (name === 'keyValue' && !repeats);
    const startsValue =
      name === 'startObject' || name === 'startArray' || name === 'startString' || name === 'startNumber' || name === 'nullValue' || name === 'trueValue' || name === 'falseValue' ||
      ((name === 'stringValue' || name === 'numberValue') && !repeats);
    if (startsKey) {
      if (top !== 'object' || keyed) refuseShape('A key where a value or the end of an array was due');
      // Counted as the key starts, as the Tokenizer counts it at its opening quote.
      if (++keys[keys.length - 1]! > limits.maxProperties) refuse('limit', 'limit.properties', exceeded('limit.properties', limits.maxProperties));
      keyed = true;
    } else if (startsValue && top === 'object') {
      if (!keyed) refuseShape('A value with no key before it, in an object: the parser must give keys (packKeys or streamKeys)');
      keyed = false;
    }
    if (name === 'startObject' || name === 'startArray') {
      if (open.length >= limits.maxDepth) refuse('limit', 'limit.depth', exceeded('limit.depth', limits.maxDepth));
      open.push(name === 'startObject' ? 'object' : 'array');
      keys.push(0);
    } else if (name === 'endObject' || name === 'endArray') {
      if (top !== (name === 'endObject' ? 'object' : 'array') || keyed) refuseShape('A container closed where it was not open, or after a key with no value');
      open.pop();
      keys.pop();
    }
  };
  /** What each token of stream-json's protocol does; any other is refused. */
  const deliverToken = (name: string, value: unknown, repeats: boolean): void => {
    switch (name) {
      case 'startString':
      case 'startKey':
      case 'startNumber':
        piece = PIECES[name]!;
        // A string of the wrong kind is refused here, before its chunks (Evaluator.stringBegins).
        if (name === 'startString') sink.stringBegins?.();
        return;
      case 'stringChunk':
      case 'numberChunk':
        // Inside its own value only (`deliver` refused any other token inside one).
        if (piece === undefined) refuseTokens(`A ${name} token outside the value it belongs to`);
        pieces += text(name, value);
        if (piece!.kind === 'string') {
          // Its length so far, up to the limit, before the limit's error: what text tells at a cut
          // or at an error inside the string (Tokenizer.scanStringValue).
          sink.stringGrows?.(Math.min(pieces.length, limits.maxStringLength));
          if (evaluator.stopped) return;
        }
        checkLength(pieces, piece!.kind);
        return;
      case 'endString':
      case 'endKey':
      case 'endNumber':
        if (piece === undefined) refuseTokens(`A ${name} token outside the value it belongs to`);
        if (piece!.kind === 'number') checkNumber(pieces);
        pending = piece!.kind;
        piece = undefined;
        return;
      case 'stringValue':
      case 'keyValue':
      case 'numberValue': {
        const packed = text(name, value);
        // The packed value supersedes the pieces streamed just before it, of its own kind only (a
        // key streamed and a value packed, with packKeys: false, are two tokens: see deliver).
        if (repeats) {
          // The value judged is the streamed one (perhaps already, as it grew): another would pass unjudged.
          if (packed !== pieces) refuseTokens(`A ${name} token that differs from the pieces streamed before it`);
          pending = undefined;
          pieces = '';
        } else if (name === 'stringValue' && packed.length > limits.maxStringLength) {
          // A string too long is announced first, with its length up to the limit, as text tells
          // it at the limit (Tokenizer.scanStringValue): its kind's or length's error comes first.
          sink.stringBegins?.();
          if (!evaluator.stopped) sink.stringGrows?.(limits.maxStringLength);
          if (evaluator.stopped) return;
        }
        checkLength(packed, PACKED_KIND[name]);
        if (name === 'numberValue') checkNumber(packed);
        sink[name](packed);
        return;
      }
      case 'startObject':
      case 'endObject':
      case 'startArray':
      case 'endArray':
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        sink[name]();
        return;
      default:
        refuseTokens(`Not a token of stream-json's protocol (${describe({name})})`);
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
      count++;
      if (inputError === undefined && !(evaluator.failed && !validator.allErrors)) guarded(() => deliver(token));
      return inputError === undefined && !evaluator.failed;
    },
    end(): Result {
      if (inputError === undefined) guarded(deliverPending);
      // Tokens that stop before the document ends (no value, an object or array left open, a
      // string begun) are no document: stream-json's parser reports a cut text itself, but tokens
      // can come from anywhere, and an unfinished value must not pass for a whole one, even where
      // its start decided it (a string judged at its startString). A failure already certain
      // stands as it was.
      if (inputError === undefined && !valueEnded() && !evaluator.failed) {
        inputError = new InputError('syntax', 'syntax.end', `The tokens ended before the document did, after token ${count}`, NO_POSITION);
      }
      return verdict(evaluator, inputError);
    },
  };
}

/** A token that is none, named for an error without quoting what it holds. */
function describe(token: unknown): string {
  if (typeof token !== 'object' || token === null) return token === null ? 'null' : typeof token;
  const name = (token as {name?: unknown}).name;
  return typeof name === 'string' ? `a token named ${JSON.stringify(name.slice(0, 32))}` : 'an object with no name';
}
