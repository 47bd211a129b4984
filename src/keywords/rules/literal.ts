// JSON literals as schema nodes, and what `enum` and `const` share. `const: X` is "the instance
// equals X" (2020-12 validation §6.1.3): objects regardless of key order, arrays item by item,
// numbers by value; `enum` is "equals one of" (§6.1.2). Scalars are compared at once. Compiling an
// object or array literal into a node lets the evaluator match it as the instance streams in,
// remembering nothing but the literal: memory is bounded by the literals, not by the document,
// and a mismatch fails at the first differing token. Told to both engines from one statement (the
// literals): the evaluator runs the literal nodes in place, the checker gets `kinds` and `some`,
// and scalars are one `accepts`.

import {escapePointerToken} from '../../json/pointer.js';
import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, newNode, setKeywords, type CompiledKeyword, type Kind, type KeywordContext, type KeywordDefinition, type Outline, type Resource, type Run, type SchemaNode, type Scalar} from '../../schema/node.js';

/** The kind of a JSON value, or undefined for anything JSON cannot hold. */
export function kindOf(value: unknown): Kind | undefined {
  if (value === null) return NULL;
  switch (typeof value) {
    case 'string':
      return STRING;
    case 'number':
      return Number.isFinite(value) ? NUMBER : undefined;
    case 'boolean':
      return BOOLEAN;
    case 'object':
      return Array.isArray(value) ? ARRAY : OBJECT;
    default:
      return undefined;
  }
}

/**
 * The pointer (relative to `value`) of the first part of `value` that JSON cannot hold (NaN, a
 * function, an undefined property...), or undefined when it is all JSON. The walk that finds it
 * builds no pointers: only the one part found is worth a pointer (see pointerOfNonJson).
 */
export function nonJsonLocation(value: unknown): string | undefined {
  if (kindOf(value) === undefined) return '';
  // Only containers wait: a scalar member is judged where it is met.
  const pending: object[] = typeof value === 'object' && value !== null ? [value] : [];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) if (!isJsonMember(current[i], pending)) return pointerOfNonJson(value);
      continue;
    }
    // Listing the names is the cost of a large object (V8 sorts them): once, here.
    const names = Object.keys(current);
    for (let i = 0; i < names.length; i++) if (!isJsonMember((current as Record<string, unknown>)[names[i]!], pending)) return pointerOfNonJson(value);
  }
  return undefined;
}

/** A scalar JSON can hold, or a container (which waits in `pending`); false for anything else. */
function isJsonMember(member: unknown, pending: object[]): boolean {
  if (typeof member === 'object' && member !== null) {
    pending.push(member);
    return true;
  }
  return kindOf(member) !== undefined;
}

/** The pointer of the first part of `value` that JSON cannot hold (there is one). */
function pointerOfNonJson(value: unknown): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    const kind = kindOf(current);
    if (kind === undefined) return path;
    // By index: a hole in an array is no JSON value either.
    if (kind === ARRAY) for (let index = 0; index < (current as unknown[]).length; index++) pending.push([(current as unknown[])[index], path + '/' + index]);
    else if (kind === OBJECT) for (const [key, member] of Object.entries(current as object)) pending.push([member, path + '/' + escapePointerToken(key)]);
  }
  return undefined;
}

/** Does the scalar now being delivered equal `literal` (a string, number, boolean or null)? */
export function scalarEquals(kind: Kind | 0, scalar: Scalar, literal: unknown): boolean {
  switch (kind) {
    case STRING:
      return literal === scalar.text;
    case NUMBER:
      // Equal doubles may still be different numbers (1e-400 rounds to 0): the decimal texts decide.
      return typeof literal === 'number' && scalar.numberEquals(literal);
    case BOOLEAN:
      return literal === scalar.booleanValue;
    case NULL:
      return literal === null;
    default:
      return false;
  }
}

/** What `make` makes for `resource`, made once per resource and kept in `cache`. */
function ofResource<T>(cache: WeakMap<Resource, T>, resource: Resource, make: () => T): T {
  let made = cache.get(resource);
  if (made === undefined) cache.set(resource, (made = make()));
  return made;
}

/** A node that no value satisfies, per resource: for the text checker's outlines of literals. */
const rejecting = new WeakMap<Resource, readonly SchemaNode[]>();

function rejectingNodes(resource: Resource): readonly SchemaNode[] {
  return ofResource(rejecting, resource, () => {
    const node = newNode(resource, resource.uri + '#');
    node.bool = false;
    return [node];
  });
}

/**
 * Every scalar, and no object or array: with the container literals of an enum, what a scalar
 * satisfies in the text checker's outline (scalars are judged by the enum's `accepts`).
 */
const anyScalar: KeywordDefinition<undefined> = {
  name: 'enum',
  compile: () => undefined,
  begin(run, keyword) {
    if (run.kind === OBJECT || run.kind === ARRAY) run.fail(keyword, 'must be equal to one of the allowed values');
  },
  accepts: () => true,
  outline: (_keyword, outline) => outline.kinds(0),
};

const scalarPassing = new WeakMap<Resource, SchemaNode>();

function anyScalarNode(resource: Resource): SchemaNode {
  return ofResource(scalarPassing, resource, () => {
    const absoluteLocation = resource.uri + '#';
    const node = newNode(resource, absoluteLocation);
    setKeywords(node, [{definition: anyScalar, index: 0, value: undefined, name: 'enum', path: '', absoluteLocation}]);
    return node;
  });
}

/**
 * An object literal as the schema gave it, with its member count: a member's node is made when a
 * document first reaches that member (LiteralNodes).
 */
interface ObjectLiteral {
  readonly literal: Readonly<Record<string, unknown>>;
  readonly nodes: LiteralNodes;
}

/** The node for the member `name` of the literal, or undefined when it has none of that name. */
function memberNode({literal, nodes}: ObjectLiteral, name: string): SchemaNode | undefined {
  return Object.hasOwn(literal, name) ? nodes.of(literal[name]) : undefined;
}

const objectLiteral: KeywordDefinition<ObjectLiteral> = {
  name: 'const',
  compile: () => undefined,
  begin(run, keyword) {
    if (run.kind !== OBJECT) run.fail(keyword, 'must be equal to the constant');
  },
  outline(keyword, outline) {
    const {value} = keyword;
    const others = value.nodes.rejecting;
    outline.kinds(OBJECT);
    // Matching a literal evaluates nothing (enum and const keep no annotations).
    outline.members((name) => {
      const member = memberNode(value, name);
      return member === undefined ? others : [member];
    }, false);
    // Names are unique (a repeated key is a syntax error): the count makes the sets equal.
    const size = value.nodes.sizeOf(value.literal);
    outline.propertyCount(size, size);
  },
  key(run, keyword, name) {
    const member = memberNode(keyword.value, name);
    if (member === undefined) run.fail(keyword, 'must be equal to the constant');
    else run.applyToMember(member, keyword, 0, '');
  },
  end(run, keyword) {
    // Keys are unique (a repeated key is a syntax error), so equal counts mean equal key sets.
    if (run.evaluator.count() !== keyword.value.nodes.sizeOf(keyword.value.literal)) run.fail(keyword, 'must be equal to the constant');
  },
  result(run, keyword, child) {
    if (child.failed) run.fail(keyword, 'must be equal to the constant');
  },
  ignoresPassingMembers: true,
};

/** An array literal as the schema gave it: an item's node is made when a document first reaches it. */
interface ArrayLiteral {
  readonly literal: readonly unknown[];
  readonly nodes: LiteralNodes;
}

const arrayLiteral: KeywordDefinition<ArrayLiteral> = {
  name: 'const',
  compile: () => undefined,
  begin(run, keyword) {
    if (run.kind !== ARRAY) run.fail(keyword, 'must be equal to the constant');
  },
  outline(keyword, outline) {
    const {literal, nodes} = keyword.value;
    outline.kinds(ARRAY);
    // Matching a literal evaluates nothing (enum and const keep no annotations).
    outline.items((index) => (index < literal.length ? [nodes.of(literal[index])] : nodes.rejecting), false, literal.length);
    outline.itemCount(literal.length, literal.length);
  },
  item(run, keyword, index) {
    const {literal, nodes} = keyword.value;
    if (index >= literal.length) run.fail(keyword, 'must be equal to the constant');
    else run.applyToMember(nodes.of(literal[index]), keyword, index, '');
  },
  end(run, keyword) {
    if (run.evaluator.count() !== keyword.value.literal.length) run.fail(keyword, 'must be equal to the constant');
  },
  result(run, keyword, child) {
    if (child.failed) run.fail(keyword, 'must be equal to the constant');
  },
  ignoresPassingMembers: true,
};

/** The value is the literal itself: a string, a number, a boolean or null. */
const scalarLiteral: KeywordDefinition<unknown> = {
  name: 'const',
  compile: () => undefined,
  begin(run, keyword) {
    if (run.kind === OBJECT || run.kind === ARRAY) run.fail(keyword, 'must be equal to the constant');
  },
  accepts: (keyword, kind, scalar) => scalarEquals(kind, scalar, keyword.value),
  outline: (_keyword, outline) => outline.kinds(0),
  scalar(run, keyword) {
    if (!scalarEquals(run.kind, run.evaluator, keyword.value)) run.fail(keyword, 'must be equal to the constant');
  },
};

/**
 * A node that accepts exactly `value`, which must be JSON (see nonJsonLocation). Compiling it is
 * one node, whatever its size: the nodes of its members are made as documents reach them.
 */
export function literalNode(value: unknown, resource: Resource, absoluteLocation: string): SchemaNode {
  return new LiteralNodes(resource, absoluteLocation).of(value);
}

/**
 * The nodes of one literal, made on first need and kept: a container's by its identity in the
 * literal, a scalar's by its value (equal scalars share one). Compiling a node per member up front
 * was a node, a keyword and their lists per member: a 250,000-key `const` took seconds to compile,
 * against ajv's tens of milliseconds. What is kept is bounded by the literal, whatever the
 * documents. The literal is read as the schema holds it: like every part of a schema, it must not
 * change once compiled.
 *
 * All the nodes have the literal's own location, and member runs no keyword-location segment: what
 * fails inside a literal is never reported (enum and const discard their runs' errors and fail at
 * the keyword).
 */
class LiteralNodes {
  private readonly scalars = new Map<unknown, SchemaNode>();
  private readonly containers = new Map<object, SchemaNode>();
  private readonly sizes = new Map<object, number>();
  /** What a name or index the literal lacks selects, for the text checker (see rejectingNodes). */
  readonly rejecting: readonly SchemaNode[];

  constructor(
    private readonly resource: Resource,
    private readonly absoluteLocation: string,
  ) {
    this.rejecting = rejectingNodes(resource);
  }

  of(value: unknown): SchemaNode {
    const kind = kindOf(value);
    // Checked at compile: only a literal changed since would hold something else.
    if (kind === undefined) return this.rejecting[0]!;
    if (kind !== OBJECT && kind !== ARRAY) {
      let node = this.scalars.get(value);
      if (node === undefined) this.scalars.set(value, (node = this.node(scalarLiteral, value)));
      return node;
    }
    let node = this.containers.get(value as object);
    if (node === undefined) {
      node = kind === OBJECT ? this.objectNode(value as Record<string, unknown>) : this.node(arrayLiteral, {literal: value as unknown[], nodes: this});
      this.containers.set(value as object, node);
    }
    return node;
  }

  private objectNode(literal: Record<string, unknown>): SchemaNode {
    return this.node(objectLiteral, {literal, nodes: this});
  }

  /**
   * The number of members of an object in the literal, counted on first need: counting lists its
   * names, which V8 sorts for a large object, and compile already lists them once.
   */
  sizeOf(object: object): number {
    let size = this.sizes.get(object);
    if (size === undefined) this.sizes.set(object, (size = Object.keys(object).length));
    return size;
  }

  private node<V>(definition: KeywordDefinition<V>, value: V): SchemaNode {
    const {resource, absoluteLocation} = this;
    const node = newNode(resource, absoluteLocation);
    setKeywords(node, [{definition, index: 0, value, name: 'const', path: '', absoluteLocation}]);
    return node;
  }
}

export interface Literals {
  /** `true`, `false` and `null` literals. */
  readonly scalars: readonly unknown[];
  readonly strings: ReadonlySet<string>;
  /** The UTF-16 length of the longest string literal, -1 without one: no longer string equals any. */
  readonly longestString: number;
  /** Number literals by their double: a lookup instead of a scan, whatever the enum's length. */
  readonly numbers: ReadonlySet<number>;
  readonly objects: readonly SchemaNode[];
  readonly arrays: readonly SchemaNode[];
  readonly message: string;
  /** ajv's params: `{allowedValues}` (the schema's `enum`) or `{allowedValue}` (its `const`). */
  readonly params: Readonly<Record<string, unknown>>;
}

class Matching {
  open = 0;
  matched = false;
}

const newMatching = (): Matching => new Matching();

/** Compile the literals an instance may equal; `pathOf` gives the location of the one at `index`. */
export function compileLiterals(
  values: readonly unknown[],
  context: KeywordContext,
  failure: {message: string; params: Readonly<Record<string, unknown>>},
  pathOf: (index: number) => string,
): Literals {
  const scalars: unknown[] = [];
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const objects: SchemaNode[] = [];
  const arrays: SchemaNode[] = [];
  values.forEach((value, index) => {
    const kind = kindOf(value);
    const notJson = nonJsonLocation(value);
    if (kind === undefined || notJson !== undefined) throw context.fail('must hold JSON values only', pathOf(index) + (notJson ?? ''));
    if (kind === OBJECT) objects.push(context.literal(value, pathOf(index)));
    else if (kind === ARRAY) arrays.push(context.literal(value, pathOf(index)));
    else if (typeof value === 'string') strings.add(value);
    else if (typeof value === 'number') numbers.add(value);
    else scalars.push(value);
  });
  let longestString = -1;
  for (const string of strings) longestString = Math.max(longestString, string.length);
  return {scalars, strings, longestString, numbers, objects, arrays, ...failure};
}

function beginMatching(run: Run, keyword: CompiledKeyword<Literals>): void {
  const kind = run.kind;
  if (kind !== OBJECT && kind !== ARRAY) return;
  const candidates = kind === OBJECT ? keyword.value.objects : keyword.value.arrays;
  if (candidates.length === 0) {
    failLiterals(run, keyword);
    return;
  }
  const matching = run.state(keyword, newMatching);
  matching.open = candidates.length;
  for (let i = 0; i < candidates.length && !run.settled && !matching.matched; i++) {
    run.applyInPlace(candidates[i], keyword, i, '');
  }
}

/** A scalar equals one of the scalar literals (strings and numbers by a set lookup). */
function acceptsScalar(keyword: CompiledKeyword<Literals>, kind: Kind, scalar: Scalar): boolean {
  if (kind === STRING) return keyword.value.strings.has(scalar.text);
  // Only a literal with the same double can equal the number; numberEquals then lets the decimal
  // text decide (1e-400 is not 0). The set treats 0 and -0 as one, as numberEquals does.
  if (kind === NUMBER) return keyword.value.numbers.has(scalar.number()) && scalar.numberEquals(scalar.number());
  const {scalars} = keyword.value;
  for (let i = 0; i < scalars.length; i++) if (scalarEquals(kind, scalar, scalars[i])) return true;
  return false;
}

/**
 * The text checker's terms (KeywordDefinition.outline): an object or array matches one of the
 * literals (each literal node outlines itself, above); scalars go to `accepts`, so among the
 * alternatives every scalar passes one: else a scalar the enum lists would fail this `some`, and
 * `not` or `if` around the enum would read that as the enum's failure.
 */
function outlineLiterals(keyword: CompiledKeyword<Literals>, outline: Outline): void {
  const {objects, arrays} = keyword.value;
  outline.kinds((objects.length > 0 ? OBJECT : 0) | (arrays.length > 0 ? ARRAY : 0));
  const containers = [...objects, ...arrays];
  if (containers.length > 0) outline.some([...containers, anyScalarNode(containers[0]!.resource)], false);
}

function scalarMatches(run: Run, keyword: CompiledKeyword<Literals>): void {
  if (!acceptsScalar(keyword, run.kind as Kind, run.evaluator)) failLiterals(run, keyword);
}

/** A params object of its own for each error unit: a caller may change one without touching the rest. */
function failLiterals(run: Run, keyword: CompiledKeyword<Literals>): void {
  run.fail(keyword, keyword.value.message, {...keyword.value.params});
}

function candidateSettled(run: Run, keyword: CompiledKeyword<Literals>, child: Run): void {
  const matching = run.state(keyword, newMatching);
  matching.open--;
  if (!child.failed) matching.matched = true;
  else if (matching.open === 0 && !matching.matched) failLiterals(run, keyword);
}

/** A keyword whose meaning is "equals one of these literals" (`enum`, `const`). */
export function literalApplicator(name: string, compile: (value: unknown, context: KeywordContext) => Literals | undefined): KeywordDefinition<Literals> {
  return {
    name,
    discardsErrors: () => true,
    compile,
    begin: beginMatching,
    accepts: acceptsScalar,
    // Every string longer than the longest string literal fails (every string, without one). A
    // code point is one or two code units, so a literal has at most as many as its length.
    stringsAlikePast: (keyword) => keyword.value.longestString,
    outline: outlineLiterals,
    scalar: scalarMatches,
    result: candidateSettled,
  };
}
