// What the in-place subschemas beside an `unevaluated*` keyword could still evaluate. Only
// evaluation by successful subschemas at the same location counts (2020-12 core §11.2-3), and those
// settle at the container's close; so an `unevaluated*` keyword with such siblings (allOf, $ref,
// if...) holds a failing member until then. But a member that no sibling could evaluate, whatever
// the rest of the container holds, is decided as it ends: `{"$ref": "base", "unevaluatedProperties":
// false}` refuses a property that `base` does not name at the property, not after reading its value
// and everything after it to the close.
//
// What a subschema evaluates is read from the keywords' outlines, the one statement of their
// structure that the text checker reads too (KeywordDefinition.outline): a `members` or `items`
// rule that annotates. Anything that could evaluate more than its outline says (a nested
// `unevaluated*`, a `$dynamicRef` whose target depends on the dynamic scope, a keyword the checker
// cannot read, more subschemas than one walk reads: rules/inPlaceWalk.ts) evaluates everything, as
// far as this is concerned.

import {acts, type CompiledKeyword, type Matcher, type SchemaNode} from '../../schema/node.js';
import {InPlaceWalk} from './inPlaceWalk.js';

type Selector<K> = (member: K, match: Matcher) => readonly SchemaNode[] | undefined;

/** What the in-place subschemas of one schema object could evaluate. */
export class InPlaceReach {
  /** Some subschema could evaluate any property. */
  anyProperty = false;
  /** The `members` rules that annotate: a property one of them selects may be evaluated. */
  readonly properties: Selector<string>[] = [];
  /** Items at this index and past it are evaluated by no in-place subschema. */
  itemsFrom = 0;

  /** Could an in-place subschema evaluate the property `name`? Regular expressions run through `match`. */
  mayEvaluateProperty(name: string, match: Matcher): boolean {
    if (this.anyProperty) return true;
    for (let i = 0; i < this.properties.length; i++) if (this.properties[i]!(name, match) !== undefined) return true;
    return false;
  }

  /** Could an in-place subschema evaluate the item at `index`? */
  mayEvaluateItem(index: number): boolean {
    return index < this.itemsFrom;
  }
}

/**
 * Collects an InPlaceReach from outlines. A `not`'s subschema is not walked: a `not` passes only
 * when it fails, and a failed subschema's annotations are dropped (2020-12 core §10.2.1.4); a
 * passing `if` keeps its own (§10.2.2.1).
 */
class ReachCollector extends InPlaceWalk {
  readonly reach = new InPlaceReach();

  constructor() {
    super(false);
  }

  /** What `node` applies in place, through the keywords that `take`, then all of what those apply. */
  collect(node: SchemaNode, take: (keyword: CompiledKeyword) => boolean): InPlaceReach {
    this.readKeywords(node, take);
    this.walk((next) => {
      this.readKeywords(next, () => true);
      return true;
    });
    return this.reach;
  }

  /** Read the keywords of `node` that `take`; those the outline cannot describe may evaluate anything. */
  private readKeywords(node: SchemaNode, take: (keyword: CompiledKeyword) => boolean): void {
    for (const keyword of node.keywords) {
      const {definition} = keyword;
      if (!acts(definition) || !take(keyword)) continue;
      if (definition.outline !== undefined) definition.outline(keyword, this);
      else if (definition.accepts === undefined) this.everything();
    }
  }

  /** Every property and item may be evaluated. */
  private everything(): void {
    this.reach.anyProperty = true;
    this.reach.itemsFrom = Infinity;
  }

  protected override overflow(): void {
    this.everything();
  }

  override members(nodesOf: Selector<string>, annotates = true): void {
    if (annotates) this.reach.properties.push(nodesOf);
  }

  override items(nodesAt: (index: number) => readonly SchemaNode[] | undefined, annotates = true, alikeFrom?: number): void {
    if (!annotates) return;
    // From `alikeFrom` on the rule selects the same at every index: nothing, or every item.
    const from = alikeFrom !== undefined && nodesAt(alikeFrom) === undefined ? alikeFrom : Infinity;
    this.reach.itemsFrom = Math.max(this.reach.itemsFrom, from);
  }

  override tally(_node: SchemaNode, _min: number, _max: number, annotates: boolean): void {
    // 2020-12 `contains` evaluates the items it matches: any index.
    if (annotates) this.reach.itemsFrom = Infinity;
  }

  override unevaluatedMembers(): void {
    this.reach.anyProperty = true;
  }

  override unevaluatedItems(): void {
    this.reach.itemsFrom = Infinity;
  }

  override dynamic(): void {
    this.everything();
  }

  override judgedWhole(): void {
    this.everything();
  }
}

/** Each `unevaluated*` keyword's reach, read once: it depends on the schema alone. */
const reaches = new WeakMap<CompiledKeyword, InPlaceReach>();

/**
 * What the subschemas applied in place by the keywords of `node` other than `reader` (its
 * `unevaluated*` keyword) could evaluate. Read when a document first asks, not at compile time:
 * references are resolved only once the whole schema has compiled.
 */
export function inPlaceReachOf(node: SchemaNode, reader: CompiledKeyword): InPlaceReach {
  let reach = reaches.get(reader);
  if (reach === undefined) reaches.set(reader, (reach = readReach(node, reader)));
  return reach;
}

function readReach(node: SchemaNode, reader: CompiledKeyword): InPlaceReach {
  return new ReachCollector().collect(node, (keyword) => keyword !== reader && keyword.definition.annotatesInPlace === true);
}
