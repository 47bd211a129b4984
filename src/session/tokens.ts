// Validation of a document given as stream-json tokens (adapters/stream-json.ts).

import {InputError, NO_POSITION} from '../output/errors.js';
import type {Result, Validator} from '../types.js';
import {CompiledValidator} from './validator.js';
import {verdict} from './document.js';

/** The tokens that end a value (a streamed string's or number's end too, before its packed value). */
const VALUE_ENDS = new Set(['endObject', 'endArray', 'endString', 'endNumber', 'stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue']);

/** What streamed pieces a packed value's token stands for. */
const PACKED_KIND = {stringValue: 'string', keyValue: 'key', numberValue: 'number'} as const;

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
  const document = validator.document();
  // The tokens go to `sink`, which is the evaluator unless the value options amend them first.
  const sink = document.beginTokens();
  const evaluator = document.evaluator;
  let pieces = '';
  let pending: 'string' | 'key' | 'number' | undefined;
  /**
   * A string value's `startString` came and its end has not: the evaluator may have judged it
   * there (TokenSink.stringBegins), so nothing but its own tokens may come before its end.
   */
  let inString = false;
  /** The objects and arrays open, innermost last. */
  const open: ('object' | 'array')[] = [];
  /** The innermost object has the key of its next value: keys and values alternate in it. */
  let keyed = false;
  /** The token before: a packed value right after its streamed pieces is the same value. */
  let previous = '';
  let inputError: InputError | undefined;
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
  const deliver = (token: StreamJsonToken): void => {
    if (inString && token.name !== 'stringChunk' && token.name !== 'endString' && token.name !== 'stringValue') {
      throw new InputError('syntax', 'syntax.tokens', `A ${token.name} token came inside a string value, before its endString`, NO_POSITION);
    }
    if (valueEnded() && !(token.name === 'stringValue' && previous === 'endString') && !(token.name === 'numberValue' && previous === 'endNumber')) {
      throw new InputError('syntax', 'syntax.trailing', `A ${token.name} token came after the document's value ended`, NO_POSITION);
    }
    followShape(token.name);
    previous = token.name;
    deliverToken(token);
  };
  /**
   * Keys and values must alternate in an object, and containers close as they opened. A parser
   * set to emit no keys (neither packKeys nor streamKeys) gives values with no key: their
   * subschemas could not be found, so they are refused rather than passed unread.
   */
  const followShape = (name: string): void => {
    const top = open.length === 0 ? undefined : open[open.length - 1];
    const refuse = (what: string): never => {
      throw new InputError('syntax', 'syntax.tokens', `${what} (a ${name} token)`, NO_POSITION);
    };
    const startsKey = name === 'startKey' || (name === 'keyValue' && previous !== 'endKey');
    const startsValue =
      name === 'startObject' || name === 'startArray' || name === 'startString' || name === 'startNumber' || name === 'nullValue' || name === 'trueValue' || name === 'falseValue' ||
      (name === 'stringValue' && previous !== 'endString') || (name === 'numberValue' && previous !== 'endNumber');
    if (startsKey) {
      if (top !== 'object' || keyed) refuse('A key where a value or the end of an array was due');
      keyed = true;
    } else if (startsValue && top === 'object') {
      if (!keyed) refuse('A value with no key before it, in an object: the parser must give keys (packKeys or streamKeys)');
      keyed = false;
    }
    if (name === 'startObject' || name === 'startArray') open.push(name === 'startObject' ? 'object' : 'array');
    else if (name === 'endObject' || name === 'endArray') {
      if (top !== (name === 'endObject' ? 'object' : 'array') || keyed) refuse('A container closed where it was not open, or after a key with no value');
      open.pop();
    }
  };
  const deliverToken = (token: StreamJsonToken): void => {
    switch (token.name) {
      case 'startString':
        deliverPending();
        pieces = '';
        // A string of the wrong kind is refused here, before its chunks (Evaluator.stringBegins).
        inString = true;
        sink.stringBegins?.();
        return;
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
        inString = false;
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
        if (token.name === 'stringValue') inString = false;
        // The packed value supersedes the pieces streamed just before it, of its own kind only: a
        // key streamed and a value packed (packKeys: false) are two tokens.
        if (pending === PACKED_KIND[token.name]) {
          pending = undefined;
          pieces = '';
        } else deliverPending();
        sink[token.name](token.value as string);
        return;
      case 'startObject':
      case 'endObject':
      case 'startArray':
      case 'endArray':
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        deliverPending();
        sink[token.name]();
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
      // Tokens that stop before the document ends (no value, an object or array left open, a
      // string begun) are no document: stream-json's parser reports a cut text itself, but tokens
      // can come from anywhere, and an unfinished value must not pass for a whole one, even where
      // its start decided it (a string judged at its startString). A failure already certain
      // stands as it was.
      if (inputError === undefined && !valueEnded() && !evaluator.failed) {
        inputError = new InputError('syntax', 'syntax.end', 'The tokens ended before the document did', NO_POSITION);
      }
      return verdict(evaluator, inputError);
    },
  };
}

