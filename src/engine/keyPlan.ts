// Key plans: for a schema node and a property name, which `key` hooks act and what each made of
// the name (KeywordDefinition.classify). Property names repeat from object to object, so regex
// tests and map lookups run once per distinct name instead of once per key per keyword.

import type {CompiledKeyword, Matcher, SchemaNode} from '../schema/node.js';

/** The `key` hooks that act on one property name in one schema node, with their classifications. */
export interface KeyPlan {
  readonly keywords: readonly CompiledKeyword[];
  readonly data: readonly unknown[];
}

/** One node's plans: per distinct name, and by key position (see keyPlanAt). */
class NodePlans {
  readonly byName = new Map<string, KeyPlan>();
  /** False once the node has met too many distinct names to cache plans for (see MAX_PLANS). */
  planning = true;
  /** The name last met at each key position, and its plan. */
  readonly names: string[] = [];
  readonly plans: KeyPlan[] = [];
}

/**
 * The key plans of one compiled schema, by node id: shared by every evaluator of one validator.
 * They depend on the schema alone; they are kept here, not on the nodes, so that a compiled node
 * holds nothing an engine writes.
 */
export class KeyPlans {
  private readonly byNode: (NodePlans | undefined)[] = [];

  of(node: SchemaNode): NodePlans {
    return (this.byNode[node.id] ??= new NodePlans());
  }
}

/**
 * Past this many distinct names a node stops caching plans (the names do not repeat: a map keyed by
 * ids, say), and its keywords classify every key afresh. Memory stays bounded either way.
 */
const MAX_PLANS = 4096;

/** What `classifyName` returns for a name a keyword ignores: its `key` hook is not called. */
export const IGNORED: unique symbol = Symbol('ignored');

/**
 * What `keyword` makes of the property name `name`: its classification (undefined for keywords
 * without `classify`, which act on every name), or IGNORED. One rule for plans and for the nodes
 * that classify every key afresh.
 */
export function classifyName(keyword: CompiledKeyword, name: string, match: Matcher): unknown {
  const classify = keyword.definition.classify;
  if (classify === undefined) return undefined;
  const datum = classify(keyword, name, match);
  return datum === undefined ? IGNORED : datum;
}

/**
 * The plan for `name`, or undefined when this node has stopped caching (see MAX_PLANS): then the
 * plans are dropped and not even looked up again (a miss in a full map cost 7% of the time on an
 * object with 200,000 distinct keys).
 */
function keyPlan(node: SchemaNode, nodePlans: NodePlans, name: string, match: Matcher): KeyPlan | undefined {
  if (!nodePlans.planning) return undefined;
  const plans = nodePlans.byName;
  let plan = plans.get(name);
  if (plan !== undefined) return plan;
  if (plans.size >= MAX_PLANS) {
    nodePlans.planning = false;
    plans.clear();
    return undefined;
  }
  const keywords = [];
  const data = [];
  for (const keyword of node.key) {
    const datum = classifyName(keyword, name, match);
    if (datum === IGNORED) continue;
    keywords.push(keyword);
    data.push(datum);
  }
  plan = {keywords, data};
  plans.set(name, plan);
  return plan;
}

/** Positions remembered per node (see keyPlanAt): objects wider than this look the rest up by name. */
const MAX_POSITIONS = 64;

/**
 * `keyPlan` for the key at `position` (0-based) in its object. Objects of one schema tend to list
 * their keys in the same order, so each node remembers the name and plan it last met at each
 * position: the same name there again costs a string comparison instead of a map lookup (on the
 * engine benchmark's records, 35 lookups per record in value mode).
 */
export function keyPlanAt(table: KeyPlans, node: SchemaNode, name: string, position: number, match: Matcher): KeyPlan | undefined {
  const nodePlans = table.of(node);
  const names = nodePlans.names;
  if (position < names.length && names[position] === name) return nodePlans.plans[position];
  const plan = keyPlan(node, nodePlans, name, match);
  if (plan !== undefined && position < MAX_POSITIONS) {
    while (names.length < position) {
      names.push('');
      nodePlans.plans.push(EMPTY_PLAN);
    }
    names[position] = name;
    nodePlans.plans[position] = plan;
  }
  return plan;
}

const EMPTY_PLAN: KeyPlan = {keywords: [], data: []};
