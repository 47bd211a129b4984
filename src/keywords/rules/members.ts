// Member application (2020-12 core §10.3): subschemas applied to the values of the properties or
// items a keyword selects. What `properties`, `patternProperties`, `additionalProperties`,
// `prefixItems`, `items` and `additionalItems` share: each says once which subschemas apply to
// which member (`select`), and this rule tells both engines from that one statement — the
// evaluator through the `key`/`item` hooks, which start a run for the member's value as its key
// or item arrives, and the text checker through the outline's `members`/`items`. `propertyNames`
// applies its subschema to each member's name instead (nameApplicator).

import type {Amendments, CompiledKeyword, KeywordContext, KeywordDefinition, Matcher, Run, SchemaNode, SubschemaShape} from '../../schema/node.js';
import {compilePattern, compileSchema, isObject} from './expect.js';

/** A subschema selected for a member, with the keyword-location path from the keyword's node. */
export interface Selected {
  readonly node: SchemaNode;
  readonly path: string;
}

/** A member the keyword forbids outright (a `false` subschema): the error it reports at once. */
export interface Refusal {
  readonly message: string;
  readonly params: Record<string, unknown>;
}

interface MemberRule<V, K> {
  readonly name: string;
  readonly subschemas: SubschemaShape;
  compile(value: unknown, context: KeywordContext): V | undefined;
  /** A member selected but forbidden (`false`): it fails at its key or item with this error. */
  refuse?(value: V, key: K): Refusal | undefined;
  /** What the value options change here (KeywordDefinition.amend). */
  amend?(value: V, amendments: Amendments): void;
}

/**
 * The names that neither `properties` nor `patternProperties` beside the keyword lists: the
 * schema object's additional properties (2020-12 core §10.3.2.3). Regular expressions run
 * through `match`, once per name in a document.
 */
export function additionalNames(context: KeywordContext): (name: string, match: Matcher) => boolean {
  const declared = declaredNames(context);
  const patterns = isObject(context.schema.patternProperties) ? Object.keys(context.schema.patternProperties).map((source) => compilePattern(source, context)) : [];
  return (name, match) => !declared.has(name) && !patterns.some((pattern) => match(pattern, name));
}

/**
 * The names `additionalNames` tells apart from all others (Outline.members): the `properties`
 * beside it, where no `patternProperties` is; undefined where one is.
 */
export function namesApartFromAdditional(context: KeywordContext): ReadonlySet<string> | undefined {
  return context.schema.patternProperties === undefined ? declaredNames(context) : undefined;
}

function declaredNames(context: KeywordContext): Set<string> {
  const siblings = context.schema;
  return new Set(isObject(siblings.properties) ? Object.keys(siblings.properties) : []);
}

/** A rule's `amend`, as the keyword's. */
function amendOf<V, K>(rule: MemberRule<V, K>): KeywordDefinition<V>['amend'] {
  const amend = rule.amend;
  return amend === undefined ? undefined : (keyword, amendments) => amend(keyword.value, amendments);
}

interface PropertyRule<V> extends MemberRule<V, string> {
  /**
   * The subschemas for the value of the property `name` (undefined or empty: the keyword ignores
   * it); regular expressions run through `match`, once per name in a document.
   */
  select(value: V, name: string, match: Matcher): readonly Selected[] | undefined;
  /**
   * The names it may select apart from others, where it selects the same for every other name
   * (Outline.members); undefined where it may tell any name apart.
   */
  names?(value: V): Iterable<string> | undefined;
}

interface ItemRule<V> extends MemberRule<V, number> {
  /** The subschemas for the item at `index` (undefined or empty: the keyword ignores it). */
  select(value: V, index: number): readonly Selected[] | undefined;
  /** From this index on, `select` selects the same at every index (Outline.items). */
  selectsAlikeFrom(value: V): number;
}

/**
 * For member applicators: a failed member fails the keyword. A passing member's output annotations
 * are kept (they are about its own location, so no evaluated properties or items come with them).
 */
export function requireMember(run: Run, _keyword: unknown, child: Run): void {
  if (child.failed) run.failWith(child);
  else run.mergeAnnotations(child);
}

function nodesOf(selected: readonly Selected[] | undefined): readonly SchemaNode[] | undefined {
  return selected === undefined || selected.length === 0 ? undefined : selected.map((each) => each.node);
}

/** Apply what was selected to the member's value (slot: the entry's position, or the item's index). */
function applySelected(run: Run, keyword: CompiledKeyword, selected: readonly Selected[], slot: number): void {
  for (let i = 0; i < selected.length; i++) {
    run.applyToMember(selected[i]!.node, keyword, slot + i, selected[i]!.path);
    if (run.settled) return;
  }
}

/**
 * A keyword that applies subschemas to property values, selected by name. The names it selects
 * are evaluated properties for `unevaluatedProperties` (2020-12 core §10.3.2).
 */
export function propertyApplicator<V>(rule: PropertyRule<V>): KeywordDefinition<V> {
  const {select, refuse} = rule;
  return {
    name: rule.name,
    subschemas: rule.subschemas,
    compile: rule.compile,
    amend: amendOf(rule),
    // What a name selects depends on the schema alone: the evaluator caches it per name (key plans).
    classify(keyword, name, match) {
      const selected = select(keyword.value, name, match);
      return selected === undefined || selected.length === 0 ? undefined : selected;
    },
    outline(keyword, outline) {
      outline.members((name, match) => nodesOf(select(keyword.value, name, match)), true, rule.names?.(keyword.value));
    },
    key(run, keyword, name, selected: readonly Selected[]) {
      const refusal = refuse?.(keyword.value, name);
      if (refusal !== undefined) {
        run.fail(keyword, refusal.message, refusal.params, name);
        return;
      }
      run.evaluatedProperties?.add(name);
      applySelected(run, keyword, selected, 0);
    },
    result: requireMember,
    ignoresPassingMembers: true,
  };
}

/**
 * A keyword that applies subschemas to array items, selected by index. The indices it selects are
 * evaluated items for `unevaluatedItems` (2020-12 core §10.3.1).
 */
export function itemApplicator<V>(rule: ItemRule<V>): KeywordDefinition<V> {
  const {select, refuse} = rule;
  return {
    name: rule.name,
    subschemas: rule.subschemas,
    compile: rule.compile,
    amend: amendOf(rule),
    outline(keyword, outline) {
      outline.items((index) => nodesOf(select(keyword.value, index)), true, rule.selectsAlikeFrom(keyword.value));
    },
    item(run, keyword, index) {
      const selected = select(keyword.value, index);
      if (selected === undefined || selected.length === 0) return;
      const refusal = refuse?.(keyword.value, index);
      if (refusal !== undefined) {
        run.fail(keyword, refusal.message, refusal.params, String(index));
        return;
      }
      run.evaluatedItems?.add(index);
      applySelected(run, keyword, selected, index);
    },
    result: requireMember,
    ignoresPassingMembers: true,
  };
}

/**
 * A keyword that applies its subschema to every property name, as a string (`propertyNames`,
 * 2020-12 core §10.3.2.4). Decided when the key arrives, before its value; the name's own errors
 * are not kept, only that it is invalid.
 */
export function nameApplicator(name: string): KeywordDefinition<SchemaNode> {
  const path = '/' + name;
  return {
    name,
    discardsErrors: () => true,
    subschemas: 'schema',
    compile: compileSchema,
    outline: (keyword, outline) => outline.keyNames(keyword.value),
    key(run, keyword, property) {
      run.evaluator.applyToString(run, keyword.value, keyword, property, path);
    },
    result(run, keyword, child) {
      if (!child.failed) return;
      const property = run.evaluator.currentKey();
      run.fail(keyword, `property name "${property}" is invalid`, {propertyName: property});
    },
  };
}
