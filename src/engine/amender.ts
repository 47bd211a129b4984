// The value options (ajv's `coerceTypes`, `useDefaults`, `removeAdditional`): a document's tokens
// are changed as they pass, before either engine sees them, so every keyword judges the value as
// changed and a parsed value is assembled changed. What changes where is the keywords' to say
// (KeywordDefinition.amend: `type`, `properties`, `items`, `additionalProperties`); which
// subschemas apply to a member, or in place, the amender reads from their outlines (`members`,
// `items`, `all`), never from the branches (`some`, `none`, `conditional`, `when`): inside those,
// what ajv changes depends on which branch it happened to try first.
//
// Orders, as ajv applies them (lib/compile/validate/index.ts, dataType.ts, defaults.ts): at one
// location each schema object coerces the value by its `type` before anything else, so its own
// coercion comes before its in-place subschemas' (pre-order); its in-place subschemas ($ref,
// allOf) run before its object keywords, so their defaults, and their subschemas for a member,
// come before its own (post-order); the first default for a name wins.
//
// In streaming nothing waits that need not: a member to be removed is skipped as it arrives; a
// default is added as the object closes; only a member judged for `'failing'` and the first item
// of an array that `'array'` may unwrap are held back, as tokens, until their fate is known.

import {InputError, NO_POSITION, type InputPosition} from '../output/errors.js';
import {escapePointerToken} from '../json/pointer.js';
import {
  ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, OutlineReader, STRING, WRAP_IN_ARRAY,
  type Amendments, type Coerced, type Coercion, type Kind, type Matcher, type Removal, type SchemaNode,
} from '../schema/node.js';
import type {Limits, TokenSink} from '../types.js';
import {copyName} from './nameCache.js';
import {Evaluator, type ApplicationCount, type InputSource} from './evaluator.js';
import type {Scope} from './dynamicScope.js';
import type {KeyPlans} from './keyPlan.js';
import {KeySet} from './keySet.js';
import {HeldScalar} from './scalar.js';

/** No default for the value about to start. */
const NONE: unique symbol = Symbol('no default');

/** What `removeAdditional` does with a member: keep it, drop it, or keep it only if it passes these. */
type Fate = 'keep' | 'drop' | readonly SchemaNode[];

/** What a plan makes of a property name: all of it depends on the schema and the name alone. */
interface Member {
  readonly plan: Plan;
  readonly fate: Fate;
  /** Its position among the plan's defaults, or -1. */
  readonly defaultIndex: number;
}

/** The changes at one location: those of the schema objects applied there and of their in-place subschemas. */
export class Plan {
  readonly coercions: Coercion[] = [];
  readonly defaultNames: string[] = [];
  readonly defaultValues: unknown[] = [];
  private readonly defaultIndex = new Map<string, number>();
  /** By position; undefined where there is none. */
  readonly itemDefaults: unknown[] = [];
  /** `useDefaults: 'empty'`: a member whose value is null or "" gets its default too. */
  emptyGetsDefault = false;
  readonly removals: Removal[] = [];
  readonly memberSelectors: ((name: string, match: Matcher) => readonly SchemaNode[] | undefined)[] = [];
  readonly itemSelectors: ((index: number) => readonly SchemaNode[] | undefined)[] = [];
  /** Item plans by index, for the first few positions (arrays tend to repeat one item schema). */
  private readonly itemPlans: Plan[] = [];
  /** Members by name, as far as the validator's budget for names goes (AmendPlans.remember). */
  private readonly members = new Map<string, Member>();

  constructor(
    private readonly plans: AmendPlans,
    /** Under a `'failing'` judgement: ajv adds no defaults there (a composite rule). */
    readonly composite: boolean,
  ) {}

  addDefault(name: string, value: unknown): void {
    if (this.defaultIndex.has(name)) return;
    this.defaultIndex.set(name, this.defaultNames.length);
    this.defaultNames.push(name);
    this.defaultValues.push(value);
  }

  /** The position of `name` among the defaults, or -1. */
  private defaultOf(name: string): number {
    return this.defaultNames.length === 0 ? -1 : (this.defaultIndex.get(name) ?? -1);
  }

  /** The nodes that apply to the value of the property `name`. */
  memberNodes(name: string, match: Matcher): readonly SchemaNode[] | undefined {
    const selectors = this.memberSelectors;
    if (selectors.length === 1) return selectors[0]!(name, match);
    const nodes: SchemaNode[] = [];
    for (const select of selectors) {
      const selected = select(name, match);
      if (selected !== undefined) nodes.push(...selected);
    }
    return nodes;
  }

  /** What the plan makes of the property `name`. */
  member(name: string, match: Matcher): Member {
    const known = this.members.get(name);
    if (known !== undefined) return known;
    const plan = this.memberSelectors.length === 0 ? this.plans.empty : this.plans.of(this.memberNodes(name, match), this.composite);
    const member = {plan, fate: this.fateOf(name, match), defaultIndex: this.defaultOf(name)};
    this.plans.remember(this.members, name, member);
    return member;
  }

  /** The plan for the item at `index`. */
  item(index: number): Plan {
    if (this.itemSelectors.length === 0) return this.plans.empty;
    const cached = this.itemPlans[index];
    if (cached !== undefined) return cached;
    const nodes: SchemaNode[] = [];
    for (const select of this.itemSelectors) {
      const selected = select(index);
      if (selected !== undefined) nodes.push(...selected);
    }
    const plan = this.plans.of(nodes, this.composite);
    if (index < ITEM_PLANS) this.itemPlans[index] = plan;
    return plan;
  }

  /** What `removeAdditional` does with the property `name` here. */
  private fateOf(name: string, match: Matcher): Fate {
    const removals = this.removals;
    if (removals.length === 0) return 'keep';
    let judges: SchemaNode[] | null = null;
    for (const removal of removals) {
      if (!removal.isAdditional(name, match)) continue;
      if (removal.failing === null) return 'drop';
      (judges ??= []).push(removal.failing);
    }
    return judges ?? 'keep';
  }
}

/** Item positions whose plans a plan keeps. */
const ITEM_PLANS = 64;
/** Plans kept per validator: each is for a set of nodes, so their number depends on the schema alone. */
const MAX_PLANS = 4096;
/**
 * Characters of property names the plans of one validator keep, in all: names come from
 * documents, so what they cost must not grow with the documents seen (past it, a name's member is
 * found again each time).
 */
const NAME_BUDGET = 1 << 20;

/** The plans of one validator, by the nodes they are for. Immutable once made, shared by its documents. */
export class AmendPlans {
  readonly empty: Plan = new Plan(this, false);
  readonly root: Plan;
  private readonly byNodes = new Map<string, Plan>();
  /** Characters of names kept so far (NAME_BUDGET). */
  private namesKept = 0;

  constructor(
    root: SchemaNode,
    /** The validator's key plans and root scope, for the evaluators that judge members under `'failing'`. */
    readonly keyPlans: KeyPlans,
    readonly rootScope: Scope,
  ) {
    this.root = this.of([root], false);
  }

  /** Keep `value` for `name` in `map`, a copy of the name (a slice would keep its document alive), within the budget. */
  remember<V>(map: Map<string, V>, name: string, value: V): void {
    if (this.namesKept + name.length > NAME_BUDGET) return;
    this.namesKept += name.length;
    map.set(copyName(name), value);
  }

  of(nodes: readonly SchemaNode[] | undefined, composite: boolean): Plan {
    if (nodes === undefined || nodes.length === 0) return this.empty;
    let signature = composite ? 'c' : '';
    for (const node of nodes) signature += node.id + ',';
    let plan = this.byNodes.get(signature);
    if (plan !== undefined) return plan;
    plan = new Plan(this, composite);
    const builder = new PlanBuilder(plan);
    for (const node of nodes) builder.visit(node);
    if (this.byNodes.size < MAX_PLANS) this.byNodes.set(signature, plan);
    return plan;
  }
}

/** What one schema object says of its own, kept until its in-place subschemas have said theirs. */
class Own {
  readonly inPlace: SchemaNode[] = [];
  readonly defaults: [string, unknown][] = [];
  readonly itemDefaults: [number, unknown][] = [];
  emptyGetsDefault = false;
  readonly removals: Removal[] = [];
  readonly members: ((name: string, match: Matcher) => readonly SchemaNode[] | undefined)[] = [];
  readonly items: ((index: number) => readonly SchemaNode[] | undefined)[] = [];
}

/** Reads the keywords' `amend` and the structure of their `outline` into a plan. */
class PlanBuilder extends OutlineReader implements Amendments {
  private readonly visited = new Set<SchemaNode>();
  private own = new Own();

  constructor(private readonly plan: Plan) {
    super();
  }

  visit(node: SchemaNode): void {
    // A node reached twice in place (a cycle, or two references to it) changes the value once.
    if (node.bool !== undefined || this.visited.has(node)) return;
    this.visited.add(node);
    const own = (this.own = new Own());
    for (const keyword of node.keywords) keyword.definition.amend?.(keyword, this);
    for (const keyword of node.keywords) keyword.definition.outline?.(keyword, this);
    for (const child of own.inPlace) this.visit(child);
    const plan = this.plan;
    for (const [name, value] of own.defaults) plan.addDefault(name, value);
    for (const [index, value] of own.itemDefaults) if (plan.itemDefaults[index] === undefined) plan.itemDefaults[index] = value;
    if (own.emptyGetsDefault) plan.emptyGetsDefault = true;
    plan.removals.push(...own.removals);
    plan.memberSelectors.push(...own.members);
    plan.itemSelectors.push(...own.items);
  }

  // ---- Amendments ----

  coerce(coercion: Coercion): void {
    // Before the in-place subschemas' coercions: ajv coerces by a schema object's own `type` first.
    this.plan.coercions.push(coercion);
  }

  propertyDefault(name: string, value: unknown, replacesEmpty: boolean): void {
    if (this.plan.composite) return;
    this.own.defaults.push([name, value]);
    if (replacesEmpty) this.own.emptyGetsDefault = true;
  }

  itemDefault(index: number, value: unknown, replacesEmpty: boolean): void {
    if (this.plan.composite) return;
    this.own.itemDefaults.push([index, value]);
    if (replacesEmpty) this.own.emptyGetsDefault = true;
  }

  remove(removal: Removal): void {
    this.own.removals.push(removal);
  }

  // ---- Outline: only what applies whatever the value ----

  override members(nodesOf: (name: string, match: Matcher) => readonly SchemaNode[] | undefined): void {
    this.own.members.push(nodesOf);
  }

  override items(nodesAt: (index: number) => readonly SchemaNode[] | undefined): void {
    this.own.items.push(nodesAt);
  }

  override all(node: SchemaNode): void {
    this.own.inPlace.push(node);
  }

}

// ---------------------------------------------------------------------------------------------
// Tokens held back

const enum Op {
  StartObject,
  EndObject,
  StartArray,
  EndArray,
  Key,
  String,
  Number,
  Null,
  True,
  False,
}

/** One value's tokens, held until what becomes of it is known. */
class Recording {
  readonly ops: Op[] = [];
  readonly texts: string[] = [];

  add(op: Op, text: string): void {
    this.ops.push(op);
    this.texts.push(text);
  }

  replay(sink: TokenSink): void {
    const {ops, texts} = this;
    for (let i = 0; i < ops.length; i++) deliver(sink, ops[i]!, texts[i]!);
  }
}

/** The depth inside a value after `op`, from `depth` before it; 0 after a scalar or an end at the top: the value is whole. */
function depthAfter(op: Op, depth: number): number {
  if (op === Op.StartObject || op === Op.StartArray) return depth + 1;
  if (op === Op.EndObject || op === Op.EndArray) return depth - 1;
  return depth;
}

/** An evaluator of one `additionalProperties` subschema, and the amender in front of it. */
interface Judge {
  readonly amender: Amender;
  readonly evaluator: Evaluator;
}

/**
 * A member that `'failing'` removes if its value fails a judge. Its tokens go to the judges as they
 * come, and are held until the value ends, unless a judge fails it first: from then on nothing is
 * held, only judged (the judges still see the keys, and refuse a repeated one).
 */
interface Judging {
  readonly name: string;
  readonly judges: readonly Judge[];
  held: Recording | null;
  depth: number;
}

function deliver(sink: TokenSink, op: Op, text: string): void {
  switch (op) {
    case Op.StartObject: return sink.startObject();
    case Op.EndObject: return sink.endObject();
    case Op.StartArray: return sink.startArray();
    case Op.EndArray: return sink.endArray();
    case Op.Key: return sink.keyValue(text);
    case Op.String: return sink.stringValue(text);
    case Op.Number: return sink.numberValue(text);
    case Op.Null: return sink.nullValue();
    case Op.True: return sink.trueValue();
    case Op.False: return sink.falseValue();
  }
}

/** A number's JSON text: its double's, with the sign of -0 kept (Number("-0") is -0 again). */
function numberTextOf(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

/**
 * An array that a coercion may unwrap (`'array'`), held until its first item and the token after
 * it say whether it is one scalar alone. ajv finds no type on an unwrapped object or array item
 * (see `Coercion.acceptsUnwrapped`): an array whose first item is a container goes on as it is.
 */
interface Unwrapping {
  readonly plan: Plan;
  /** The coercion that asks for the item alone. */
  readonly from: number;
  /** The first item, once it came: a scalar's token. */
  op: Op | -1;
  text: string;
}

/** What the next value is, when not the next member's or item's: a default, an unwrapped item, a judged member. */
interface Forced {
  readonly plan: Plan;
  /** The coercions to apply start here... */
  readonly from: number;
  /** ...with the first of them judging an unwrapped item. */
  readonly unwrapped: boolean;
}

interface AmendFrame {
  plan: Plan;
  kind: typeof OBJECT | typeof ARRAY;
  /** Members or items so far. */
  count: number;
  key: string;
  /** Per default of the plan: the property is there. */
  readonly seen: boolean[];
  /** The names so far, where removal may hide a repeated one from the engines (`checksNames`). */
  readonly names: KeySet;
  checksNames: boolean;
}

/**
 * One document's amendments, between the tokens' source and the engines (and the assembler). Per
 * document; `begin` sets it afresh.
 */
export class Amender implements TokenSink {
  /** Where the amended tokens go; between documents, nowhere (an assembler there would keep its value alive). */
  private out: TokenSink | null = null;
  private input: InputSource | null = null;
  private fromText = false;
  private readonly frames: AmendFrame[] = [];
  private depth = 0;
  /** The plan for the value that starts next at an object's member (or the document). */
  private next: Plan;
  /** Its default, under `'empty'`, should it be null or "". */
  private nextDefault: unknown = NONE;
  private forced: Forced | null = null;
  /** The value being delivered, as coercion reads it. */
  private readonly held = new HeldScalar();
  /** A removed member's value is being skipped: how deep inside it, with its objects' names. */
  private skipping = false;
  private readonly skipped: (KeySet | undefined)[] = [];
  private skippedDepth = 0;
  /** A member being judged for `'failing'`. */
  private judging: Judging | null = null;
  /** A one-item array may become its item: held until the token after that item. */
  private unwrapping: Unwrapping | null = null;

  constructor(
    private readonly plans: AmendPlans,
    private readonly limits: Required<Limits>,
    /** The document's way to run a regular expression on a name (src/engine/patterns.ts). */
    private readonly match: Matcher,
    /** The document's count of applications (Limits.maxApplications), which its judges count into. */
    private readonly applications: ApplicationCount,
    /** This amender is a judge's: the values its judges are given were counted by an outer one. */
    private readonly nested: boolean,
  ) {
    this.next = plans.root;
  }

  /**
   * A new document, whose amended tokens go to `out`. `input` gives positions for errors;
   * `fromText`: its keys can repeat, which a removal must not hide.
   */
  begin(out: TokenSink, input: InputSource | null, fromText: boolean, root: Plan = this.plans.root): this {
    this.release();
    this.out = out;
    this.input = input;
    this.fromText = fromText;
    this.depth = 0;
    this.next = root;
    this.nextDefault = NONE;
    this.forced = null;
    this.skipping = false;
    this.skippedDepth = 0;
    this.judging = null;
    this.unwrapping = null;
    return this;
  }

  /** Keep nothing of the document: its keys and strings are slices of its text. */
  release(): void {
    for (let depth = 0; depth < this.frames.length; depth++) {
      const frame = this.frames[depth]!;
      frame.key = '';
      frame.names.clear();
    }
    for (const names of this.skipped) names?.clear();
    this.held.releaseScalar();
    this.judging = null;
    this.unwrapping = null;
    this.out = null;
    this.input = null;
  }

  // ---- TokenSink ----

  startObject(): void {
    if (!this.intercept(Op.StartObject, '')) this.arriveContainer(OBJECT);
  }

  startArray(): void {
    if (!this.intercept(Op.StartArray, '')) this.arriveContainer(ARRAY);
  }

  endObject(): void {
    if (!this.intercept(Op.EndObject, '')) this.closeObject();
  }

  endArray(): void {
    if (!this.intercept(Op.EndArray, '')) this.closeArray();
  }

  keyValue(key: string): void {
    if (!this.intercept(Op.Key, key)) this.key(key);
  }

  stringValue(value: string): void {
    if (this.intercept(Op.String, value)) return;
    this.held.holdString(value);
    this.arriveScalar(STRING, undefined);
  }

  numberValue(text: string): void {
    if (this.intercept(Op.Number, text)) return;
    this.held.holdNumberText(text);
    this.arriveScalar(NUMBER, text);
  }

  /** Value mode: a number as a double (src/json/walker.ts). */
  numberValueOf(value: number): void {
    this.numberValue(numberTextOf(value));
  }

  /** The walker asks; an amender never stops a walk (its output is the assembler, which takes everything). */
  get stopped(): boolean {
    return false;
  }

  nullValue(): void {
    if (!this.intercept(Op.Null, '')) this.arriveScalar(NULL, undefined);
  }

  trueValue(): void {
    if (this.intercept(Op.True, '')) return;
    this.held.holdBoolean(true);
    this.arriveScalar(BOOLEAN, undefined);
  }

  falseValue(): void {
    if (this.intercept(Op.False, '')) return;
    this.held.holdBoolean(false);
    this.arriveScalar(BOOLEAN, undefined);
  }

  // ---- tokens held back or skipped ----

  /** True when the token is someone else's: a held value's, a skipped value's, or an unwrapping's. */
  private intercept(op: Op, text: string): boolean {
    if (this.unwrapping !== null) return this.unwrap(op, text);
    if (this.judging !== null) {
      this.judge(this.judging, op, text);
      return true;
    }
    if (this.skipping) {
      this.skip(op, text);
      return true;
    }
    return false;
  }

  /** A token of a removed member's value: nothing goes on, but a repeated key is still refused. */
  private skip(op: Op, text: string): void {
    if (op === Op.Key) {
      const names = this.skipped[this.skippedDepth - 1];
      if (this.fromText && names !== undefined && !names.add(text)) throw this.repeatedKey(text);
      return;
    }
    if (op === Op.StartObject && this.fromText) (this.skipped[this.skippedDepth] ??= new KeySet()).clear();
    this.skippedDepth = depthAfter(op, this.skippedDepth);
    if (this.skippedDepth === 0) this.skipping = false;
  }

  /** A token of an array that may be unwrapped: true when it is held or taken here. */
  private unwrap(op: Op, text: string): boolean {
    const unwrapping = this.unwrapping!;
    const first = unwrapping.op === -1;
    if (first && op !== Op.StartObject && op !== Op.StartArray && op !== Op.EndArray) {
      unwrapping.op = op;
      unwrapping.text = text;
      return true;
    }
    this.unwrapping = null;
    if (op === Op.EndArray && !first) {
      // One scalar alone: it stands for the array.
      this.forced = {plan: unwrapping.plan, from: unwrapping.from, unwrapped: true};
      deliver(this, unwrapping.op as Op, unwrapping.text);
      return true;
    }
    this.openContainer(ARRAY, unwrapping.plan);
    if (!first) deliver(this, unwrapping.op as Op, unwrapping.text);
    return false;
  }

  /** `'failing'`: the member `name` begins; its judges are the subschemas it must pass to stay. */
  private beginJudging(name: string, nodes: readonly SchemaNode[]): void {
    const judges = nodes.map((node): Judge => {
      const evaluator = new Evaluator(node, false, this.plans.keyPlans, this.plans.rootScope, this.applications, this.nested ? 'nested judge' : 'judge', this.match);
      evaluator.reset(null, this.fromText);
      // ajv judges it as a composite rule: amended, but without defaults.
      const amender = new Amender(this.plans, this.limits, this.match, this.applications, true).begin(evaluator, null, this.fromText, this.plans.of([node], true));
      return {amender, evaluator};
    });
    this.judging = {name, judges, held: new Recording(), depth: 0};
  }

  /** A token of a member being judged: to the judges, and held while the member may stay. */
  private judge(judging: Judging, op: Op, text: string): void {
    try {
      for (const {amender} of judging.judges) deliver(amender, op, text);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      throw this.relocated(error);
    }
    if (judging.held !== null) {
      if (judging.judges.some(({evaluator}) => evaluator.root.failed)) judging.held = null;
      else judging.held.add(op, text);
    }
    judging.depth = depthAfter(op, judging.depth);
    if (judging.depth > 0) return;
    this.judging = null;
    const {held, name} = judging;
    if (held === null) return;
    const frame = this.frames[this.depth - 1]!;
    this.out!.keyValue(name);
    // Amended as ajv leaves it after judging it as a composite rule: no defaults in it.
    this.forced = {plan: this.plans.of(frame.plan.memberNodes(name, this.match), true), from: 0, unwrapped: false};
    held.replay(this);
  }

  // ---- values ----

  /** The plan for the value that starts now, and (under `'empty'`) its default. */
  private valuePlan(): Plan {
    const frame = this.depth === 0 ? undefined : this.frames[this.depth - 1]!;
    if (frame === undefined || frame.kind === OBJECT) return this.next;
    const index = frame.count++;
    const plan = frame.plan;
    if (plan.emptyGetsDefault && plan.itemDefaults[index] !== undefined) this.nextDefault = plan.itemDefaults[index];
    return plan.item(index);
  }

  private arriveScalar(kind: Kind, numberText: string | undefined): void {
    const forced = this.forced;
    this.forced = null;
    const plan = forced === null ? this.valuePlan() : forced.plan;
    const empty = this.nextDefault;
    this.nextDefault = NONE;
    if (empty !== NONE && (kind === NULL || (kind === STRING && this.held.text === ''))) {
      this.forced = {plan, from: 0, unwrapped: false};
      this.emitValue(empty, 0);
      return;
    }
    if (forced === null) this.deliverScalar(kind, numberText, plan, 0, -1);
    else this.deliverScalar(kind, numberText, plan, forced.from, forced.unwrapped ? forced.from : -1);
  }

  /**
   * A scalar coerced by the plan's coercions from `from` on, then delivered (in an array, if one
   * wraps it); `unwrappedAt`: the coercion that took it out of an array, or -1.
   */
  private deliverScalar(kind: Kind, numberText: string | undefined, plan: Plan, from: number, unwrappedAt: number): void {
    const coercions = plan.coercions;
    let wrapped = false;
    for (let i = from; i < coercions.length; i++) {
      const coercion = coercions[i]!;
      if (wrapped) {
        if (coercion.accepts(ARRAY, this.held) || !coercion.unwraps) continue;
        wrapped = false;
        unwrappedAt = i;
      }
      if (i === unwrappedAt ? coercion.acceptsUnwrapped(kind, this.held) : coercion.accepts(kind, this.held)) continue;
      const coerced = coercion.coerce(kind, this.held);
      if (coerced === undefined) {
        // ajv reports the type error and leaves the array where it was.
        if (i === unwrappedAt) wrapped = true;
        continue;
      }
      if (coerced === WRAP_IN_ARRAY) wrapped = true;
      else {
        kind = this.hold(coerced);
        numberText = undefined;
      }
    }
    if (wrapped) {
      // The scalar arrives again, as the array's one item.
      this.openContainer(ARRAY, plan);
      this.arriveScalar(kind, numberText);
      this.closeArray();
      return;
    }
    this.emitScalar(kind, numberText);
  }

  /** Hold a coerced scalar; its kind. */
  private hold(value: Exclude<Coerced, undefined | typeof WRAP_IN_ARRAY>): Kind {
    if (value === null) return NULL;
    if (typeof value === 'string') {
      this.held.holdString(value);
      return STRING;
    }
    if (typeof value === 'number') {
      this.held.holdDouble(value);
      return NUMBER;
    }
    this.held.holdBoolean(value);
    return BOOLEAN;
  }

  private emitScalar(kind: Kind, numberText: string | undefined): void {
    const out = this.out!;
    const held = this.held;
    if (kind === STRING) out.stringValue(held.text);
    else if (kind === NUMBER) out.numberValue(numberText ?? numberTextOf(held.number()));
    else if (kind === BOOLEAN) {
      if (held.booleanValue) out.trueValue();
      else out.falseValue();
    } else out.nullValue();
  }

  private arriveContainer(kind: typeof OBJECT | typeof ARRAY): void {
    const forced = this.forced;
    this.forced = null;
    const plan = forced === null ? this.valuePlan() : forced.plan;
    this.nextDefault = NONE;
    if (kind === OBJECT) {
      this.openContainer(OBJECT, plan);
      return;
    }
    const coercions = plan.coercions;
    for (let i = 0; i < coercions.length; i++) {
      const coercion = coercions[i]!;
      if (coercion.unwraps && !coercion.accepts(ARRAY, this.held)) {
        this.unwrapping = {plan, from: i, op: -1, text: ''};
        return;
      }
    }
    this.openContainer(ARRAY, plan);
  }

  private openContainer(kind: typeof OBJECT | typeof ARRAY, plan: Plan): void {
    if (this.depth >= this.limits.maxDepth) {
      throw this.inputError('limit', 'limit.depth', `nesting deeper than ${this.limits.maxDepth} once defaults and coercions are in`);
    }
    let frame = this.frames[this.depth];
    if (frame === undefined) this.frames.push((frame = {plan, kind, count: 0, key: '', seen: [], names: new KeySet(), checksNames: false}));
    frame.plan = plan;
    frame.kind = kind;
    frame.count = 0;
    frame.key = '';
    const seen = frame.seen;
    seen.length = 0;
    if (kind === OBJECT) for (let i = 0; i < plan.defaultNames.length; i++) seen.push(false);
    frame.checksNames = kind === OBJECT && this.fromText && plan.removals.length > 0;
    if (frame.checksNames) frame.names.clear();
    this.depth++;
    if (kind === OBJECT) this.out!.startObject();
    else this.out!.startArray();
  }

  private key(name: string): void {
    const frame = this.frames[this.depth - 1]!;
    frame.count++;
    frame.key = name;
    if (frame.checksNames && !frame.names.add(name)) throw this.repeatedKey(name);
    const member = frame.plan.member(name, this.match);
    if (member.defaultIndex >= 0) frame.seen[member.defaultIndex] = true;
    this.enter(member, name);
  }

  /** The member `name` of the innermost object begins: it goes on, is skipped, or is held to be judged. */
  private enter(member: Member, name: string): void {
    const {fate} = member;
    if (fate === 'drop') {
      this.skipping = true;
      this.skippedDepth = 0;
      return;
    }
    if (fate !== 'keep') {
      this.beginJudging(name, fate);
      return;
    }
    this.out!.keyValue(name);
    this.next = member.plan;
    const plan = this.frames[this.depth - 1]!.plan;
    this.nextDefault = plan.emptyGetsDefault && member.defaultIndex >= 0 ? plan.defaultValues[member.defaultIndex] : NONE;
  }

  private closeObject(): void {
    const frame = this.frames[this.depth - 1]!;
    const {plan, seen} = frame;
    for (let i = 0; i < plan.defaultNames.length; i++) {
      if (seen[i]) continue;
      // Added as if sent: removal, coercion and the member's own defaults apply to it too.
      const name = plan.defaultNames[i]!;
      frame.key = name;
      this.enter(plan.member(name, this.match), name);
      this.emitValue(plan.defaultValues[i], 0);
    }
    this.depth--;
    this.out!.endObject();
  }

  private closeArray(): void {
    const frame = this.frames[this.depth - 1]!;
    const defaults = frame.plan.itemDefaults;
    // Only where no item is missing before it: ajv would leave a hole, which JSON has no way to say.
    while (frame.count < defaults.length && defaults[frame.count] !== undefined) this.emitValue(defaults[frame.count], 0);
    this.depth--;
    this.out!.endArray();
  }

  /** A JSON value from the schema (a default), into this amender as if it had been sent. */
  private emitValue(value: unknown, nesting: number): void {
    if (nesting > this.limits.maxDepth) throw this.inputError('limit', 'limit.depth', `a default nested deeper than ${this.limits.maxDepth}`);
    if (value === null) this.nullValue();
    else if (typeof value === 'string') this.stringValue(value);
    else if (typeof value === 'number') this.numberValue(numberTextOf(value));
    else if (typeof value === 'boolean') {
      if (value) this.trueValue();
      else this.falseValue();
    } else if (Array.isArray(value)) {
      this.startArray();
      for (const item of value) this.emitValue(item, nesting + 1);
      this.endArray();
    } else {
      this.startObject();
      for (const [name, member] of Object.entries(value as object)) {
        this.keyValue(name);
        this.emitValue(member, nesting + 1);
      }
      this.endObject();
    }
  }

  // ---- errors ----

  private position(): InputPosition {
    return this.input === null ? NO_POSITION : this.input.position();
  }

  /** JSON pointer of the innermost open container's current member. */
  private pointer(): string {
    let pointer = '';
    for (let i = 0; i < this.depth; i++) {
      const frame = this.frames[i]!;
      pointer += '/' + (frame.kind === OBJECT ? escapePointerToken(frame.key) : String(frame.count - 1));
    }
    return pointer;
  }

  private inputError(kind: 'syntax' | 'limit', code: string, message: string): InputError {
    const error = new InputError(kind, code, message, this.position());
    error.instanceLocation = this.pointer();
    return error;
  }

  private repeatedKey(key: string): InputError {
    return this.inputError('syntax', 'syntax.duplicateKey', `Duplicate key "${key}" in one object (RFC 7493 §2.3)`);
  }

  /** An input error from a member judged apart: where it is in the document. */
  private relocated(error: InputError): InputError {
    const relocated = new InputError(error.kind, error.code, error.message, this.position());
    relocated.instanceLocation = this.pointer() + error.instanceLocation;
    return relocated;
  }
}
