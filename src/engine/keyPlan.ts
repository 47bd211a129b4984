// Key plans: for a schema node and a property name, which `key` hooks act and what each made of
// the name (KeywordDefinition.classify). Property names repeat from object to object, so regex
// tests and map lookups run once per distinct name instead of once per key per keyword. The plans
// outlive the documents whose names they keep: those names are copies, within a budget in bytes
// (src/engine/nameCache.ts).

import type {CompiledKeyword, SchemaNode} from '../schema/node.js';
import {NameBudget, copyName, isKeepable, type NameKeeper} from './nameCache.js';

/** The `key` hooks that act on one property name in one schema node, with their classifications. */
export interface KeyPlan {
  /** The name, a copy that shares nothing with the document it came in. */
  readonly name: string;
  readonly keywords: readonly CompiledKeyword[];
  readonly data: readonly unknown[];
}

/** What a plan costs beside its name's characters (~870 bytes: benchmarks/name-cache-memory.ts). */
const PLAN_BYTES = 1024;

/** One node's plans: per distinct name, and by key position (see keyPlanAt). */
class NodePlans implements NameKeeper {
  readonly byName = new Map<string, KeyPlan>();
  /** False once the node has met too many distinct names to cache plans for (see MAX_PLANS). */
  planning = true;
  /**
   * The name last met at each key position (the plan's own copy), and its plan; null at a
   * position whose name had no plan, which no name equals.
   */
  readonly names: (string | null)[] = [];
  readonly plans: KeyPlan[] = [];

  get keptNames(): number {
    return this.byName.size;
  }

  forgetNames(give: (name: string) => void): void {
    this.planning = false;
    for (const name of this.byName.keys()) give(name);
    this.byName.clear();
    this.names.length = 0;
    this.plans.length = 0;
  }
}

/**
 * The key plans of one compiled schema, by node id: shared by every evaluator of one validator.
 * They depend on the schema alone; they are kept here, not on the nodes, so that a compiled node
 * holds nothing an engine writes.
 */
export class KeyPlans {
  private readonly byNode: (NodePlans | undefined)[] = [];
  /** What the names kept by every node's plans may still take. */
  readonly budget = new NameBudget(PLAN_BYTES);

  of(node: SchemaNode): NodePlans {
    return (this.byNode[node.id] ??= new NodePlans());
  }
}

/**
 * Past this many distinct names a node stops caching plans (its names do not repeat: a map keyed
 * by ids, say), as it does when it holds the most names once the budget is spent, and its
 * keywords classify every key afresh; its names' bytes go back to the budget.
 */
const MAX_PLANS = 4096;

/** What `classifyName` returns for a name a keyword ignores: its `key` hook is not called. */
export const IGNORED: unique symbol = Symbol('ignored');

/**
 * What `keyword` makes of the property name `name`: its classification (undefined for keywords
 * without `classify`, which act on every name), or IGNORED. One rule for plans and for the nodes
 * that classify every key afresh.
 */
export function classifyName(keyword: CompiledKeyword, name: string): unknown {
  const classify = keyword.definition.classify;
  if (classify === undefined) return undefined;
  const datum = classify(keyword, name);
  return datum === undefined ? IGNORED : datum;
}

/**
 * The plan for `name`, or undefined when this node has stopped caching (see MAX_PLANS): then the
 * plans are dropped and not even looked up again (a miss in a full map cost 7% of the time on an
 * object with 200,000 distinct keys). Undefined too for a name the budget does not keep.
 */
function keyPlan(table: KeyPlans, node: SchemaNode, nodePlans: NodePlans, name: string): KeyPlan | undefined {
  if (!nodePlans.planning) return undefined;
  const plans = nodePlans.byName;
  const plan = plans.get(name);
  if (plan !== undefined) return plan;
  if (plans.size >= MAX_PLANS) {
    table.budget.retire(nodePlans);
    return undefined;
  }
  if (!isKeepable(name) || !table.budget.take(nodePlans, name)) return undefined;
  const keywords = [];
  const data = [];
  for (const keyword of node.key) {
    const datum = classifyName(keyword, name);
    if (datum === IGNORED) continue;
    keywords.push(keyword);
    data.push(datum);
  }
  const copy = copyName(name);
  const made = {name: copy, keywords, data};
  plans.set(copy, made);
  return made;
}

/** Positions remembered per node (see keyPlanAt): objects wider than this look the rest up by name. */
const MAX_POSITIONS = 64;

/**
 * `keyPlan` for the key at `position` (0-based) in its object. Objects of one schema tend to list
 * their keys in the same order, so each node remembers the name and plan it last met at each
 * position: the same name there again costs a string comparison instead of a map lookup (on the
 * engine benchmark's records, 35 lookups per record in value mode).
 */
export function keyPlanAt(table: KeyPlans, node: SchemaNode, name: string, position: number): KeyPlan | undefined {
  const nodePlans = table.of(node);
  const names = nodePlans.names;
  if (position < names.length && names[position] === name) return nodePlans.plans[position];
  const plan = keyPlan(table, node, nodePlans, name);
  if (plan !== undefined && position < MAX_POSITIONS) {
    while (names.length < position) {
      names.push(null);
      nodePlans.plans.push(EMPTY_PLAN);
    }
    names[position] = plan.name;
    nodePlans.plans[position] = plan;
  }
  return plan;
}

const EMPTY_PLAN: KeyPlan = {name: '', keywords: [], data: []};
