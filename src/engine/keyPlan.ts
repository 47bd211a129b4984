// Key plans: for a schema node and a property name, which `key` hooks act and what each made of
// the name (KeywordDefinition.classify). Property names repeat from object to object, so regex
// tests and map lookups run once per distinct name instead of once per key per keyword. The plans
// outlive the documents whose names they keep: those names are copies, within a budget in bytes
// (src/engine/nameCache.ts).

import type {CompiledKeyword, SchemaNode} from '../schema/node.js';
import {NameBudget, copyName, isKeepable} from './nameCache.js';

/** The `key` hooks that act on one property name in one schema node, with their classifications. */
export interface KeyPlan {
  /** The name, a copy that shares nothing with the document it came in. */
  readonly name: string;
  readonly keywords: readonly CompiledKeyword[];
  readonly data: readonly unknown[];
}

/** What a plan costs beside its name's characters (measured: ~500 bytes for a 31-character name). */
const PLAN_BYTES = 512;

/** One node's plans: per distinct name, and by key position (see keyPlanAt). */
class NodePlans {
  readonly byName = new Map<string, KeyPlan>();
  /** False once the node has met too many distinct names to cache plans for (see MAX_PLANS). */
  planning = true;
  /**
   * The name last met at each key position (the plan's own copy), and its plan; null at a
   * position whose name had no plan, which no name equals.
   */
  readonly names: (string | null)[] = [];
  readonly plans: KeyPlan[] = [];
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
 * Past this many distinct names, or once the names of all nodes have spent the budget, a node
 * stops caching plans (its names do not repeat: a map keyed by ids, say), and its keywords
 * classify every key afresh; its names' bytes go back to the budget for the other nodes.
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
 * object with 200,000 distinct keys). Undefined too for a name too long to keep (isKeepable).
 */
function keyPlan(table: KeyPlans, node: SchemaNode, nodePlans: NodePlans, name: string): KeyPlan | undefined {
  if (!nodePlans.planning) return undefined;
  const plans = nodePlans.byName;
  const plan = plans.get(name);
  if (plan !== undefined) return plan;
  if (plans.size >= MAX_PLANS) {
    stopPlanning(table, nodePlans);
    return undefined;
  }
  if (!isKeepable(name)) return undefined;
  if (!table.budget.take(name)) {
    stopPlanning(table, nodePlans);
    return undefined;
  }
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

function stopPlanning(table: KeyPlans, nodePlans: NodePlans): void {
  nodePlans.planning = false;
  for (const name of nodePlans.byName.keys()) table.budget.give(name);
  nodePlans.byName.clear();
  nodePlans.names.length = 0;
  nodePlans.plans.length = 0;
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
