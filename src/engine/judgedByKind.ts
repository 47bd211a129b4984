// Which schemas judge a string by its kind alone, or by its kind and a bound on its length: every
// string passes them, or every string fails them, whatever its text, once it is longer than the
// bound (-1 for the kind alone). A string is whole at its closing quote; where every schema applied
// to it has a bound, it is decided at its opening quote for -1, and in a session as it grows past
// the bound: a session need not read a long string of the wrong kind, or one longer than
// `maxLength`, (up to `limits.maxStringLength`) to say no (Evaluator.stringBegins, stringGrows).
//
// Each keyword says so of itself (KeywordDefinition.stringsAlikePast); a schema does when each of
// its keywords that acts on scalars does, and each subschema it applies in place does too (read
// from the outlines), and its bound is the largest of theirs. A keyword that may rewrite errors
// (`errorMessage`) or follows the dynamic scope does not, nor one of the caller's that reads
// strings (a custom keyword or string format).

import {acts, type SchemaNode} from '../schema/node.js';
import {InPlaceWalk} from '../keywords/rules/inPlaceWalk.js';

/** A schema's bound, with all it applies in place (Infinity where the text decides); read once per schema. */
class KindReader extends InPlaceWalk {
  /** Something applies that the outline cannot name (a `$dynamicRef`, a custom keyword), or too much. */
  unknown = false;
  /** The largest bound read so far. */
  private past = -1;

  constructor() {
    // A `not` judges a string by its kind only if its subschema does.
    super(true);
  }

  bound(root: SchemaNode): number {
    this.visit(root);
    return this.walk((node) => this.readNode(node)) && !this.unknown ? this.past : Infinity;
  }

  /** False when `node`'s own keywords, or what it was found to be before, read a string's text. */
  private readNode(node: SchemaNode): boolean {
    const known = node.bool !== undefined ? -1 : bounds.get(node);
    if (known !== undefined) {
      this.past = Math.max(this.past, known);
      if (known === Infinity && unknowable.has(node)) this.unknown = true;
      return known !== Infinity;
    }
    for (const keyword of node.keywords) {
      const {definition} = keyword;
      // `errorMessage` acts only on errors, which it may write with the value in them.
      if (definition.restate !== undefined) return false;
      if (!acts(definition)) continue;
      if (definition.followsDynamicScope === true) {
        this.unknown = true;
        return false;
      }
      const onScalars = definition.accepts !== undefined || definition.scalar !== undefined;
      if (onScalars) {
        const past = definition.stringsAlikePast?.(keyword);
        if (past === undefined) return false;
        this.past = Math.max(this.past, past);
      }
      if (definition.outline !== undefined) definition.outline(keyword, this);
      else if (!onScalars) return false;
    }
    return !this.unknown;
  }

  protected override overflow(): void {
    this.unknown = true;
  }

  override dynamic(): void {
    this.unknown = true;
  }

  override judgedWhole(): void {
    this.unknown = true;
  }
}

/** What each schema was found to be: it depends on the schema alone. */
const bounds = new WeakMap<SchemaNode, number>();

/**
 * Every string of more than this many code points gets one verdict from `node` and all it applies
 * in place, whatever its text: -1 where every string does, Infinity where the text decides.
 */
export function stringsAlikePast(node: SchemaNode): number {
  let past = bounds.get(node);
  if (past === undefined) {
    const reader = new KindReader();
    bounds.set(node, (past = reader.bound(node)));
    if (reader.unknown) unknowable.add(node);
  }
  return past;
}

/** The schemas whose bound is Infinity because what they apply could not be read (KindReader.unknown). */
const unknowable = new WeakSet<SchemaNode>();

/**
 * `node`'s bound (stringsAlikePast) is Infinity because something it applies could not be read
 * from its outline: a `$dynamicRef`, a keyword without an outline, too much. There the evaluator,
 * which applies what it finds, may still judge a string early.
 */
export function stringsAlikeUnknown(node: SchemaNode): boolean {
  stringsAlikePast(node);
  return unknowable.has(node);
}
