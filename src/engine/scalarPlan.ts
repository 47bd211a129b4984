// What one schema node's own keywords make of a scalar, for the text checker (src/engine/checker.ts):
// the keywords' `accepts`, and whether anything else acts on a scalar. It depends on the node
// alone, so it is worked out once per node and kept by the schema's CheckerCache; apart from the
// shapes because a member reads it before (and often instead of) building any shape.

import {acts, type CompiledKeyword, type KeywordDefinition, type Outline, type SchemaNode} from '../schema/node.js';

export type Accepts = NonNullable<KeywordDefinition['accepts']>;

/**
 * What one node's own keywords make of a scalar: their `accepts`, and whether anything else acts
 * on it (an in-place subschema, a `kinds` rule of a keyword without `accepts`). A member whose
 * nodes are all plain (the common leaf) is judged by these predicates in one loop (Member.accepts);
 * any other scalar is judged by the shape of its location, as a container is (judgeScalar).
 */
export class ScalarPlan {
  readonly accepts: Accepts[] = [];
  readonly acceptsKeywords: CompiledKeyword[] = [];
  /** Only the `accepts` above act on a scalar. */
  plain = true;
}

/** Tells whether a node's outlines ask anything of a scalar besides its keywords' `accepts`. */
class ScalarPlanOutline implements Outline {
  constructor(private readonly plan: ScalarPlan) {}
  private notPlain(): void {
    this.plan.plain = false;
  }
  kinds = this.notPlain;
  all = this.notPlain;
  dynamic = this.notPlain;
  some = this.notPlain;
  none = this.notPlain;
  conditional = this.notPlain;
  // Objects and arrays only.
  members(): void {}
  keyNames(): void {}
  present(): void {}
  propertyCount(): void {}
  items(): void {}
  itemCount(): void {}
  distinctItems(): void {}
  tally(): void {}
  unevaluatedMembers(): void {}
  unevaluatedItems(): void {}
  when(): void {}
  judgedWhole(): void {}
}

/**
 * The scalar plans of one compiled schema, by node id (held by its CheckerCache): they depend on
 * the schema alone, and are kept here rather than on the nodes, which hold nothing an engine writes.
 */
export class ScalarPlans {
  private readonly byNode: (ScalarPlan | undefined)[] = [];

  of(node: SchemaNode): ScalarPlan {
    return (this.byNode[node.id] ??= scalarPlanOf(node));
  }
}

function scalarPlanOf(node: SchemaNode): ScalarPlan {
  const plan = new ScalarPlan();
  const outline = new ScalarPlanOutline(plan);
  for (const keyword of node.keywords) {
    const {definition} = keyword;
    if (!acts(definition)) continue;
    if (definition.accepts !== undefined) {
      plan.accepts.push(definition.accepts);
      plan.acceptsKeywords.push(keyword);
    } else if (definition.outline !== undefined) definition.outline(keyword, outline);
    else plan.plain = false;
  }
  return plan;
}
