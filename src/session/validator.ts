// compile() and the Validator it returns: value mode, text, and sessions over one compiled schema.

import {compileSchema} from '../compile/compile.js';
import {KeyPlans} from '../engine/keyPlan.js';
import type {SchemaNode} from '../schema/node.js';
import {CheckerCache} from '../engine/checker.js';
import {defaultLimits} from '../json/tokenizer.js';
import type {CompileOptions, Draft, Limits, Result, Session, SessionOptions, Validator} from '../types.js';
import {Document, type CompiledParts} from './document.js';

/** Compile a schema once. Throws SchemaError when the schema is broken. */
export function compile(schema: unknown, options: CompileOptions = {}): Validator {
  const {root, draft} = compileSchema(schema, options);
  return new CompiledValidator(root, draft, options.allErrors ?? false, {...defaultLimits, ...options.limits});
}

export class CompiledValidator implements Validator {
  private readonly parts: CompiledParts;
  /**
   * A document to reuse, with its frames (a third of the time on small documents went to setting
   * up a fresh evaluator): the whole-document calls take it and give it back before they return.
   */
  private idle: Document | null = null;

  constructor(
    root: SchemaNode,
    readonly draft: Draft,
    readonly allErrors: boolean,
    limits: Required<Limits>,
  ) {
    this.parts = {root, allErrors, limits, keyPlans: new KeyPlans(), checkerCache: new CheckerCache()};
  }

  /** A document for one whole-document call: the idle one, or a new one while that is in use. */
  private take(): Document {
    const document = this.idle;
    if (document === null) return new Document(this.parts);
    this.idle = null;
    return document;
  }

  /** `call` on a document of its own, given back when it returns (or throws). */
  private withDocument<A>(call: (document: Document, argument: A) => Result, argument: A): Result {
    const document = this.take();
    try {
      return call(document, argument);
    } finally {
      this.idle = document;
    }
  }

  validate(value: unknown): Result {
    return this.withDocument(validateValue, value);
  }

  validateText(text: string | Uint8Array): Result {
    return this.withDocument(validateText, text);
  }

  parseText(text: string | Uint8Array): Result {
    return this.withDocument(parseText, text);
  }

  session(options: SessionOptions = {}): Session {
    const document = new Document(this.parts);
    const parse = options.parse ?? false;
    document.beginText(parse, !parse && !this.allErrors);
    return document;
  }

  /** A document of its own, for one given as tokens (see `tokenValidator`). */
  document(): Document {
    return new Document(this.parts);
  }
}

// The whole-document calls, as functions of the document (no closure made per call).
const validateValue = (document: Document, value: unknown): Result => document.validateValue(value);
const validateText = (document: Document, text: string | Uint8Array): Result => document.validateText(text);
const parseText = (document: Document, text: string | Uint8Array): Result => document.parseText(text);
