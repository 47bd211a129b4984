// Which schemas judge a string by its kind alone: every string passes them, or every string fails
// them, whatever its text. A string is whole at its closing quote, and a string of the wrong type
// used to be refused there; where every schema applied to it judges strings by their kind, it is
// decided at its opening quote instead, and a session need not read a long string of the wrong kind
// (up to `limits.maxStringLength`) to say no (Evaluator.stringBegins).
//
// Each keyword says so of itself (KeywordDefinition.judgesStringsByKind); a schema does when each of
// its keywords that acts on scalars does, and each subschema it applies in place does too (read
// from the outlines). A keyword that may rewrite errors (`errorMessage`) or follows the dynamic
// scope does not, nor one of the caller's that reads strings (a custom keyword or string format).

import {OutlineReader, acts, type SchemaNode} from '../schema/node.js';

/** Subschemas looked at per schema, at most: past this, it does not. */
const MAX_NODES = 256;

/** Collects the subschemas a schema applies in place, from the outlines. */
class InPlaceNodes extends OutlineReader {
  readonly nodes: SchemaNode[] = [];
  /** Something applies that the outline cannot name: a `$dynamicRef`, a custom keyword. */
  unknown = false;

  override all(node: SchemaNode): void {
    this.nodes.push(node);
  }

  override some(nodes: readonly SchemaNode[]): void {
    for (const node of nodes) this.nodes.push(node);
  }

  override none(node: SchemaNode): void {
    this.nodes.push(node);
  }

  override conditional(condition: SchemaNode, then: SchemaNode | undefined, otherwise: SchemaNode | undefined): void {
    this.nodes.push(condition);
    if (then !== undefined) this.nodes.push(then);
    if (otherwise !== undefined) this.nodes.push(otherwise);
  }

  override when(_trigger: string, node: SchemaNode): void {
    this.nodes.push(node);
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
  if (verdict === undefined) judged.set(node, (verdict = readNodes(node)));
  return verdict;
}

/** The schemas applied in place from `root`, each read once: all must judge strings by kind. */
function readNodes(root: SchemaNode): boolean {
  const seen = new Set<SchemaNode>([root]);
  const pending = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const known = judged.get(node);
    if (known === false) return false;
    if (known === true || node.bool !== undefined) continue;
    const inPlace = new InPlaceNodes();
    for (const keyword of node.keywords) {
      const {definition} = keyword;
      // `errorMessage` acts only on errors, which it may write with the value in them.
      if (definition.restate !== undefined) return false;
      if (!acts(definition)) continue;
      if (definition.followsDynamicScope === true) return false;
      const onScalars = definition.accepts !== undefined || definition.scalar !== undefined;
      if (onScalars && definition.judgesStringsByKind?.(keyword) !== true) return false;
      if (definition.outline !== undefined) definition.outline(keyword, inPlace);
      else if (!onScalars) return false;
    }
    if (inPlace.unknown) return false;
    for (const next of inPlace.nodes) {
      if (seen.has(next)) continue;
      if (seen.size >= MAX_NODES) return false;
      seen.add(next);
      pending.push(next);
    }
  }
  return true;
}
