// Key plans: for a schema node and a property name, which `key` hooks act and what each made of
// the name (KeywordDefinition.classify). Property names repeat from object to object, so regex
// tests and map lookups run once per distinct name instead of once per key per keyword. The plans
// outlive the documents whose names they keep: those names are copies, within a budget in bytes
// (src/engine/nameCache.ts).

import type {CompiledKeyword, Matcher, SchemaNode} from '../schema/node.js';
import {NameBudget, NameTable} from './nameCache.js';

/** The `key` hooks that act on one property name in one schema node, with their classifications. */
export interface KeyPlan {
  /** The name, a copy that shares nothing with the document it came in. */
  readonly name: string;
  readonly keywords: readonly CompiledKeyword[];
  readonly data: readonly unknown[];
}

/** What a plan costs beside its name's characters (~870 bytes: benchmarks/name-cache-memory.ts). */
const PLAN_BYTES = 1024;

/**
 * The key plans of one compiled schema, by node id: shared by every evaluator of one validator.
 * They depend on the schema alone; they are kept here, not on the nodes, so that a compiled node
 * holds nothing an engine writes.
 */
export class KeyPlans {
  private readonly byNode: (NameTable<KeyPlan> | undefined)[] = [];
  /** What the names kept by every node's plans may still take. */
  private readonly budget = new NameBudget(PLAN_BYTES);

  of(node: SchemaNode): NameTable<KeyPlan> {
    return (this.byNode[node.id] ??= new NameTable(this.budget));
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
export function classifyName(keyword: CompiledKeyword, name: string, match: Matcher, node: SchemaNode): unknown {
  const classify = keyword.definition.classify;
  if (classify === undefined) return undefined;
  const datum = classify(keyword, name, match, node);
  return datum === undefined ? IGNORED : datum;
}

/**
 * The plan for `name`, or undefined when this node has stopped caching (see MAX_PLANS): then the
 * plans are dropped and not even looked up again (a miss in a full map cost 7% of the time on an
 * object with 200,000 distinct keys). Undefined too for a name the budget does not keep.
 */
function keyPlan(node: SchemaNode, plans: NameTable<KeyPlan>, name: string, match: Matcher): KeyPlan | undefined {
  if (!plans.keeps) return undefined;
  const plan = plans.byName.get(name);
  if (plan !== undefined) return plan;
  if (plans.keptNames >= MAX_PLANS) {
    plans.retire();
    return undefined;
  }
  if (!plans.admits(name)) return undefined;
  const keywords = [];
  const data = [];
  for (const keyword of node.key) {
    const datum = classifyName(keyword, name, match, node);
    if (datum === IGNORED) continue;
    keywords.push(keyword);
    data.push(datum);
  }
  const made = {name, keywords, data};
  made.name = plans.set(name, made);
  return made;
}

/**
 * `keyPlan` for the key at `position` (0-based) in its object: the plan met at that position last
 * time when the name is the same (NameTable.place).
 */
export function keyPlanAt(table: KeyPlans, node: SchemaNode, name: string, position: number, match: Matcher): KeyPlan | undefined {
  const plans = table.of(node);
  const names = plans.names;
  if (position < names.length && names[position] === name) return plans.values[position];
  const plan = keyPlan(node, plans, name, match);
  if (plan !== undefined) plans.place(position, plan.name, plan);
  return plan;
}
