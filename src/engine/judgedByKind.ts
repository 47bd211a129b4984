// Which schemas judge a string by its kind alone: every string passes them, or every string fails
// them, whatever its text. A string is whole at its closing quote; where every schema applied to
// it judges strings by their kind, it is decided at its opening quote instead, and a session need
// not read a long string of the wrong kind (up to `limits.maxStringLength`) to say no
// (Evaluator.stringBegins).
//
// Each keyword says so of itself (KeywordDefinition.judgesStringsByKind); a schema does when each of
// its keywords that acts on scalars does, and each subschema it applies in place does too (read
// from the outlines). A keyword that may rewrite errors (`errorMessage`) or follows the dynamic
// scope does not, nor one of the caller's that reads strings (a custom keyword or string format).

import {acts, type SchemaNode} from '../schema/node.js';
import {InPlaceWalk} from '../keywords/rules/inPlaceWalk.js';

/** Whether a schema and all it applies in place judge strings by kind; read once per schema. */
class KindReader extends InPlaceWalk {
  /** Something applies that the outline cannot name (a `$dynamicRef`, a custom keyword), or too much. */
  private unknown = false;

  constructor() {
    // A `not` judges a string by its kind only if its subschema does.
    super(true);
  }

  judges(root: SchemaNode): boolean {
    this.visit(root);
    return this.walk((node) => this.readNode(node)) && !this.unknown;
  }

  /** False when `node`'s own keywords, or what it was found to be before, read a string's text. */
  private readNode(node: SchemaNode): boolean {
    const known = judged.get(node);
    if (known !== undefined || node.bool !== undefined) return known !== false;
    for (const keyword of node.keywords) {
      const {definition} = keyword;
      // `errorMessage` acts only on errors, which it may write with the value in them.
      if (definition.restate !== undefined) return false;
      if (!acts(definition)) continue;
      if (definition.followsDynamicScope === true) return false;
      const onScalars = definition.accepts !== undefined || definition.scalar !== undefined;
      if (onScalars && definition.judgesStringsByKind?.(keyword) !== true) return false;
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
const judged = new WeakMap<SchemaNode, boolean>();

/** Does `node`, with all it applies in place, judge every string by its kind alone? */
export function judgesStringsByKind(node: SchemaNode): boolean {
  let verdict = judged.get(node);
  if (verdict === undefined) judged.set(node, (verdict = new KindReader().judges(node)));
  return verdict;
}
