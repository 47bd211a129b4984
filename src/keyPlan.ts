// Key plans: for a schema node and a property name, which `key` hooks act and what each made of
// the name (KeywordDefinition.classify). Property names repeat from object to object, so regex
// tests and map lookups run once per distinct name instead of once per key per keyword.

import type {KeyPlan, SchemaNode} from './schema.js';

/**
 * Past this many distinct names a node stops caching plans (the names do not repeat: a map keyed by
 * ids, say), and its keywords classify every key afresh. Memory stays bounded either way.
 */
const MAX_PLANS = 4096;

/**
 * The plan for `name`, or undefined when this node has stopped caching (see MAX_PLANS): then the
 * plans are dropped and not even looked up again (a miss in a full map cost 7% of the time on an
 * object with 200,000 distinct keys).
 */
export function keyPlan(node: SchemaNode, name: string): KeyPlan | undefined {
  if (!node.planning) return undefined;
  const plans = node.keyPlans;
  let plan = plans.get(name);
  if (plan !== undefined) return plan;
  if (plans.size >= MAX_PLANS) {
    node.planning = false;
    plans.clear();
    return undefined;
  }
  const keywords = [];
  const data = [];
  for (const keyword of node.key) {
    const classify = keyword.definition.classify;
    const datum = classify === undefined ? undefined : classify(keyword, name);
    if (classify !== undefined && datum === undefined) continue;
    keywords.push(keyword);
    data.push(datum);
  }
  plan = {keywords, data};
  plans.set(name, plan);
  return plan;
}
