// Error classes. Each has a stable `code` and says where: a schema pointer, or a byte position.

import type {OutputUnit} from '../types.js';

/** What a `schema.ref.unresolved` tried. */
export interface UnresolvedReference {
  /** The reference as written. */
  readonly reference: string;
  /** The absolute URI it resolved to, and looked up. */
  readonly uri: string;
  /** The base URI it was resolved against. */
  readonly base: string;
  /** Registered URIs that come close (schemas, anchors or locations), closest first. */
  readonly registered: readonly string[];
}

/**
 * A function given an argument or option it cannot take: a value of the wrong type, or one it
 * does not know. A TypeError, as Node's own ERR_INVALID_ARG_TYPE is; the message names the
 * argument and says what it takes.
 */
export class ArgumentError extends TypeError {
  readonly code: string = 'argument.invalid';
}

/** A number argument or option outside the range it takes: a RangeError, as Node's ERR_OUT_OF_RANGE is. */
export class ArgumentRangeError extends RangeError {
  readonly code: string = 'argument.range';
}

/** A schema that cannot be compiled. Thrown by `compile` only. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  /** Stable machine-readable reason, e.g. `schema.keyword.shape`, `schema.ref.unresolved`. */
  readonly code: string;
  /** JSON pointer of the offending schema location (prefixed by the resource URI when not the root). */
  readonly schemaLocation: string;
  /** `schema.ref.unresolved` only. */
  readonly unresolved: UnresolvedReference | undefined;

  constructor(code: string, schemaLocation: string, reason: string, unresolved?: UnresolvedReference) {
    super(`${reason} (at schema location "${schemaLocation}")`);
    this.code = code;
    this.schemaLocation = schemaLocation;
    this.unresolved = unresolved;
  }
}

/** Where in the input text something happened. `offset` is a 0-based UTF-8 byte offset. */
export interface InputPosition {
  offset: number;
  /** 1-based line (lines end at LF). */
  line: number;
  /** 1-based column, in UTF-16 code units from the start of the line. */
  column: number;
}

/** The position of an event that has none (value mode: the input is not text). */
export const NO_POSITION: InputPosition = {offset: -1, line: 0, column: 0};

/**
 * Malformed JSON (`kind: 'syntax'`) or input past a configured bound (`kind: 'limit'`).
 * The tokenizer and the value walker throw it; sessions turn it into an error result, never a throw.
 */
export class InputError extends Error implements InputPosition {
  override readonly name = 'InputError';
  readonly kind: 'syntax' | 'limit';
  /** e.g. `syntax.unexpected`, `syntax.end`, `syntax.duplicateKey`, `limit.depth`, `limit.string`. */
  readonly code: string;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** JSON pointer of the value being read when it happened, when known. */
  instanceLocation = '';

  constructor(kind: 'syntax' | 'limit', code: string, message: string, position: InputPosition) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.offset = position.offset;
    this.line = position.line;
    this.column = position.column;
  }
}

/** An input problem (malformed JSON, a limit) as an output unit, distinguishable by `kind`. */
export function inputErrorUnit(error: InputError): OutputUnit {
  const unit: OutputUnit = {
    valid: false,
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
