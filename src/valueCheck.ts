// Value mode's fast verdict. Replaying a parsed value as events costs a run per applied schema and
// a hook call per keyword per event; most documents are valid, and for them only the verdict
// matters. So value mode first asks each keyword's `holds`/`holdsKey`/`accepts` directly on the
// value (docs/decisions.md, "Value mode's fast verdict"). A pass is final: the result is valid with
// no errors. Anything else (a failure, a keyword without these hooks, a value past the limits or
// deeper than this checker recurses) replays the value as events, which finds the errors and their
// locations exactly as before. The suite runs both paths on every test (test/valueCheck.test.ts).

import type {Evaluator} from './evaluator.js';
import {IGNORED, classifyName, keyPlanAt} from './keyPlan.js';
import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, acts, type CompiledKeyword, type Kind, type KeywordDefinition, type Resource, type SchemaNode} from './schema.js';
import type {Limits} from './types.js';

type Accepts = NonNullable<KeywordDefinition['accepts']>;
type Holds = NonNullable<KeywordDefinition['holds']>;

/**
 * What checking a node needs, sorted once per node from its keywords. Each list holds the hooks
 * beside their keywords: reading `keyword.definition.hook` meets a different object shape per
 * keyword; keeping the hooks here made the fast verdict ~6% faster (1.94 -> 1.83 us per record).
 */
export interface ValuePlan {
  /** Keywords that judge scalars with `accepts`. */
  readonly scalarAccepts: readonly Accepts[];
  readonly scalarAcceptsKeywords: readonly CompiledKeyword[];
  /** Keywords without `accepts` that judge scalars too (in-place applicators): their `holds`. */
  readonly scalarHolds: readonly Holds[];
  readonly scalarHoldsKeywords: readonly CompiledKeyword[];
  /** Keywords that judge whole objects and arrays. */
  readonly containerHolds: readonly Holds[];
  readonly containerHoldsKeywords: readonly CompiledKeyword[];
  /** Some keyword judges properties one by one (`holdsKey`): an object's keys are visited. */
  readonly keyed: boolean;
}

/**
 * Deeper than this (nested values and in-place applications together), the checker gives up and
 * the events decide: they keep an explicit stack, the checker recurses on the JavaScript one.
 */
const MAX_CHECK_DEPTH = 400;

/** Sort a node's keywords by how the checker asks them; null when one of them cannot be asked. */
function planFor(node: SchemaNode): ValuePlan | null {
  const scalarAcceptsKeywords: CompiledKeyword[] = [];
  const scalarHoldsKeywords: CompiledKeyword[] = [];
  const containerHoldsKeywords: CompiledKeyword[] = [];
  let keyed = false;
  for (const keyword of node.keywords) {
    const {accepts, holds, holdsKey, begin, key, item, end} = keyword.definition;
    if (!acts(keyword.definition)) continue;
    if (holds === undefined && holdsKey === undefined) {
      // `accepts` alone speaks for scalars only: the keyword must not act on containers.
      if (accepts === undefined || begin !== undefined || key !== undefined || item !== undefined || end !== undefined) return null;
      scalarAcceptsKeywords.push(keyword);
      continue;
    }
    if (accepts !== undefined) scalarAcceptsKeywords.push(keyword);
    else if (holds !== undefined && holdsKey === undefined) scalarHoldsKeywords.push(keyword);
    if (holds !== undefined) containerHoldsKeywords.push(keyword);
    if (holdsKey !== undefined) keyed = true;
  }
  return {
    scalarAccepts: scalarAcceptsKeywords.map((keyword) => keyword.definition.accepts!),
    scalarAcceptsKeywords,
    scalarHolds: scalarHoldsKeywords.map((keyword) => keyword.definition.holds!),
    scalarHoldsKeywords,
    containerHolds: containerHoldsKeywords.map((keyword) => keyword.definition.holds!),
    containerHoldsKeywords,
    keyed,
  };
}

/** How a property fared in checkKeyUnplanned: failed, passed a subschema, or met none. */
const FAILED = 0;
const CHECKED = 1;
const UNCHECKED = 2;

/** The kind of a value that is not an object (or null): 0 for what JSON cannot hold. */
function kindOfScalar(value: unknown): Kind | 0 {
  switch (typeof value) {
    case 'string':
      return STRING;
    case 'number':
      return NUMBER;
    case 'boolean':
      return BOOLEAN;
    case 'object':
      return NULL;
    default:
      return 0;
  }
}

export class ValueChecker {
  /** Nesting of checks now open (values and in-place applications together). */
  private calls = 0;
  /**
   * The nodes of those checks, outermost first (`scope[0]` to `scope[calls - 1]`): the dynamic
   * scope, as the evaluator reads it off a run's parents, for `$dynamicRef` and `$recursiveRef`.
   */
  private readonly scope: SchemaNode[] = [];
  /** Instance depth of the value being checked (the document is 0). */
  private depth = 0;
  /** Values at this depth and deeper, inside the value being checked, are known to be within the limits. */
  private ensuredFrom = Infinity;
  /** The answer being worked out cannot be trusted (see `check`): the events must decide. */
  private unsure = false;
  /** False once a schema node turned out to be one the checker cannot ask: stop trying. */
  private enabled = true;

  constructor(
    private readonly evaluator: Evaluator,
    private readonly limits: Required<Limits>,
  ) {}

  /** False once the schema turned out to have a node the checker cannot ask (e.g. `unevaluatedProperties`). */
  get usable(): boolean {
    return this.enabled;
  }

  /** True when `value` is JSON within the limits and certainly satisfies `root`; false when unsure. */
  passes(root: SchemaNode, value: unknown): boolean {
    if (!this.enabled || prototypeHasEnumerables()) return false;
    this.calls = 0;
    this.depth = -1;
    this.ensuredFrom = Infinity;
    this.unsure = false;
    try {
      return this.apply(root, value, 1) && !this.unsure;
    } catch {
      // The checker recurses on the JavaScript stack, which a caller may have nearly used up, and
      // a getter may throw: the walk, which keeps its own stack, decides (and rethrows the same).
      return false;
    }
  }

  /**
   * Does the member value `member` (of the object or array being checked) satisfy `node`? For
   * keyword hooks. A false may be an "unsure" (then the whole answer is discarded), so callers may
   * negate it freely (`not`).
   */
  check(node: SchemaNode, member: unknown): boolean {
    return this.apply(node, member, 1);
  }

  /** Does the value being checked satisfy `node` too (allOf, $ref, if...)? */
  checkInPlace(node: SchemaNode, value: unknown): boolean {
    return this.apply(node, value, 0);
  }

  /**
   * Check `value`, `step` levels below the value being checked. A check that passes a value also
   * makes sure it is JSON within the limits, as the event walk (src/walker.ts) would: a check in
   * place leaves that to the check of the same value that is under way.
   */
  private apply(node: SchemaNode, value: unknown, step: 0 | 1): boolean {
    const depth = this.depth + step;
    const known = step === 0 || depth >= this.ensuredFrom;
    if (node.bool !== undefined) return node.bool && (known || this.withinLimits(value, depth) || this.giveUp());
    const plan = node.valuePlan === undefined ? (node.valuePlan = planFor(node)) : node.valuePlan;
    if (plan === null) {
      this.enabled = false;
      return this.giveUp();
    }
    if (typeof value !== 'object' || value === null) return this.checkScalar(node, plan, value, known);
    if (this.calls >= MAX_CHECK_DEPTH) return this.giveUp();
    this.scope[this.calls++] = node;
    const outer = this.depth;
    this.depth = depth;
    const passed = Array.isArray(value) ? this.checkArray(plan, value, known) : this.checkObject(node, plan, value as Record<string, unknown>, known);
    this.depth = outer;
    this.calls--;
    return passed;
  }

  /** For keyword hooks: the schema resources of the dynamic scope, innermost first. */
  *dynamicScope(): Generator<Resource> {
    for (let i = this.calls - 1; i >= 0; i--) yield this.scope[i].resource;
  }

  /** For keyword hooks: this value is one the keyword will not judge here; the events decide. */
  cannotTell(): false {
    return this.giveUp();
  }

  private giveUp(): false {
    this.unsure = true;
    return false;
  }

  /** Scalars: the most common check, so it keeps no depth (only in-place applicators recurse). */
  private checkScalar(node: SchemaNode, plan: ValuePlan, value: unknown, known: boolean): boolean {
    const kind = kindOfScalar(value);
    if (kind === 0 || (!known && !this.scalarWithinLimits(value))) return this.giveUp();
    const evaluator = this.evaluator;
    evaluator.holdScalar(kind, value);
    const {scalarAccepts, scalarAcceptsKeywords} = plan;
    for (let i = 0; i < scalarAccepts.length; i++) if (!scalarAccepts[i](scalarAcceptsKeywords[i], kind, evaluator)) return false;
    const {scalarHolds, scalarHoldsKeywords} = plan;
    if (scalarHolds.length === 0) return true;
    if (this.calls >= MAX_CHECK_DEPTH) return this.giveUp();
    this.scope[this.calls++] = node;
    let passed = true;
    for (let i = 0; i < scalarHolds.length && passed; i++) passed = scalarHolds[i](scalarHoldsKeywords[i], value, kind, this);
    this.calls--;
    return passed;
  }

  private checkObject(node: SchemaNode, plan: ValuePlan, object: Record<string, unknown>, known: boolean): boolean {
    if (!known && !this.isPlainContainer(object, this.depth)) return this.giveUp();
    if (!this.holdAll(plan, object, OBJECT)) return false;
    if (known && !plan.keyed) return true;
    // `for...in` visits what Object.keys lists (see isPlainContainer, prototypeHasEnumerables), and
    // V8 reads `object[name]` inside it from the enumeration cache: 300 instead of 500 ns per
    // benchmark record for a walk.
    const {maxKeyLength} = this.limits;
    let position = 0;
    for (const name in object) {
      const member = object[name];
      if (!known && (name.length > maxKeyLength || member === undefined)) return this.giveUp();
      // Each member is checked by a subschema, or else for the limits alone.
      let checked = false;
      if (plan.keyed) {
        const keyPlan = keyPlanAt(node, name, position);
        if (keyPlan === undefined) {
          const outcome = this.checkKeyUnplanned(node, name, member);
          if (outcome === FAILED) return false;
          checked = outcome === CHECKED;
        } else {
          const {keywords, data} = keyPlan;
          for (let i = 0; i < keywords.length; i++) {
            const holdsKey = keyPlan.holdsKey[i];
            if (holdsKey === undefined) continue;
            if (!holdsKey(keywords[i], name, data[i], member, this)) return false;
            checked = true;
          }
        }
      }
      if (!known && !checked && !this.withinLimits(member, this.depth + 1)) return this.giveUp();
      position++;
    }
    return known || position <= this.limits.maxProperties || this.giveUp();
  }

  private checkArray(plan: ValuePlan, array: unknown[], known: boolean): boolean {
    if (known) return this.holdAll(plan, array, ARRAY);
    // The items are walked for the limits first; the item checks below then skip that.
    if (!this.isPlainContainer(array, this.depth)) return this.giveUp();
    for (let i = 0; i < array.length; i++) if (!this.withinLimits(array[i], this.depth + 1)) return this.giveUp();
    const outer = this.ensuredFrom;
    this.ensuredFrom = this.depth + 1;
    const passed = this.holdAll(plan, array, ARRAY);
    this.ensuredFrom = outer;
    return passed;
  }

  private holdAll(plan: ValuePlan, value: object, kind: Kind): boolean {
    const {containerHolds, containerHoldsKeywords} = plan;
    for (let i = 0; i < containerHolds.length; i++) if (!containerHolds[i](containerHoldsKeywords[i], value, kind, this)) return false;
    return true;
  }

  /** A property through the keywords that classify every name afresh (the node stopped caching plans). */
  private checkKeyUnplanned(node: SchemaNode, name: string, member: unknown): typeof FAILED | typeof CHECKED | typeof UNCHECKED {
    const keywords = node.key;
    let outcome: typeof CHECKED | typeof UNCHECKED = UNCHECKED;
    for (let i = 0; i < keywords.length; i++) {
      const holdsKey = keywords[i].definition.holdsKey;
      if (holdsKey === undefined) continue;
      const datum = classifyName(keywords[i], name);
      if (datum === IGNORED) continue;
      if (!holdsKey(keywords[i], name, datum, member, this)) return FAILED;
      outcome = CHECKED;
    }
    return outcome;
  }

  /** A string, number, boolean or null the walk would accept (kind 0 values are not JSON). */
  private scalarWithinLimits(value: unknown): boolean {
    return typeof value === 'string' ? value.length <= this.limits.maxStringLength : typeof value !== 'number' || Number.isFinite(value);
  }

  /**
   * A container the walk would open at instance depth `depth`: not too deep (nor deeper than this
   * checker recurses), and an array or a plain object, whose `for...in` lists what Object.keys does.
   */
  private isPlainContainer(value: object, depth: number): boolean {
    if (depth >= this.limits.maxDepth || depth >= MAX_CHECK_DEPTH) return false;
    if (Array.isArray(value)) return true;
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  }

  /**
   * `value`, at instance depth `depth`, is JSON (finite numbers, no undefined members or items,
   * nothing but JSON types) and within the limits, as the event walk would find it. False sends the
   * document to the walk, which says what is wrong and where.
   */
  private withinLimits(value: unknown, depth: number): boolean {
    if (typeof value !== 'object' || value === null) return kindOfScalar(value) !== 0 && this.scalarWithinLimits(value);
    if (!this.isPlainContainer(value, depth)) return false;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (!this.withinLimits(value[i], depth + 1)) return false;
      return true;
    }
    let count = 0;
    for (const name in value) {
      if (name.length > this.limits.maxKeyLength) return false;
      const member = (value as Record<string, unknown>)[name];
      if (member === undefined || !this.withinLimits(member, depth + 1)) return false;
      count++;
    }
    return count <= this.limits.maxProperties;
  }
}

/** Someone gave Object.prototype an enumerable property: `for...in` would list it on every object. */
function prototypeHasEnumerables(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/** An object has `name` as a property of its own (JSON.parse makes `__proto__` one, too). */
export function hasProperty(object: unknown, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, name);
}
