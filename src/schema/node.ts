// The compiled form of a schema and the contract every keyword module implements: what a keyword
// is given (a KeywordContext to compile with, a Run and an Instance to evaluate with) and what it
// gives back (a KeywordDefinition). Compile (src/compile/) builds SchemaNodes once; the engines
// (src/engine/) run them. A compiled node is immutable once compiled and holds nothing of a
// document or of an engine: the engines keep their caches in tables indexed by `SchemaNode.id`.

import type {AnnotationUnit, CompileOptions, OutputUnit} from '../types.js';
import type {FormatCheck} from '../formats/index.js';
import type {Decimal} from '../json/numbers.js';
import type {InputError} from '../output/errors.js';

/** Instance kinds as bits, so a `type` keyword is one mask test. */
export const OBJECT = 1;
export const ARRAY = 2;
export const STRING = 4;
export const NUMBER = 8;
export const BOOLEAN = 16;
export const NULL = 32;
/** Not a kind of its own: a NUMBER whose value is whole. Only `type` masks use it. */
export const INTEGER = 64;

export type Kind = typeof OBJECT | typeof ARRAY | typeof STRING | typeof NUMBER | typeof BOOLEAN | typeof NULL;

export const kindNames: Readonly<Record<number, string>> = {
  [OBJECT]: 'object',
  [ARRAY]: 'array',
  [STRING]: 'string',
  [NUMBER]: 'number',
  [BOOLEAN]: 'boolean',
  [NULL]: 'null',
};

/** A schema resource: the unit that `$id` opens and that the dynamic scope is made of. */
export interface Resource {
  readonly uri: string;
  readonly draft: DraftTable;
  /** The compile this resource belongs to, which numbers its nodes. */
  readonly compilation: Compilation;
  /** `$dynamicAnchor` (2020-12) names → their nodes, for `$dynamicRef`. */
  readonly dynamicAnchors: Map<string, SchemaNode>;
  /** `$recursiveAnchor: true` at the resource root (2019-09), for `$recursiveRef`. */
  recursiveAnchor: boolean;
  /** The node at the resource root. */
  root: SchemaNode | undefined;
}

/** The nodes compiled together (one `compile()`): their ids are 0 to `nodeCount - 1`. */
export interface Compilation {
  nodeCount: number;
}

export interface SchemaNode {
  /** Dense per compilation: the engines' per-node tables are indexed by it. */
  readonly id: number;
  /** `<resource uri>#<pointer>`: where this schema is, for `absoluteKeywordLocation`. */
  readonly absoluteLocation: string;
  readonly resource: Resource;
  /** `true`/`false` for boolean schemas (and for object schemas with no keywords that act: `true`). */
  bool: boolean | undefined;
  keywords: readonly CompiledKeyword[];
  // Hook lists, precomputed so that the hot path only visits keywords that act. A list equal to
  // another is that one (see setKeywords): none is ever changed in place.
  begin: readonly CompiledKeyword[];
  scalar: readonly CompiledKeyword[];
  key: readonly CompiledKeyword[];
  item: readonly CompiledKeyword[];
  end: readonly CompiledKeyword[];
  restate: readonly CompiledKeyword[];
  /** No keyword of this node starts runs on a scalar value: a scalar member needs no run of its own. */
  scalarLeaf: boolean;
  /** The keywords that act on scalars, when every one of them has `accepts`; else null. */
  scalarAccepts: readonly CompiledKeyword[] | null;
  /** Someone at this location needs the names of evaluated properties (`unevaluatedProperties`). */
  collectsProperties: boolean;
  /** Someone at this location needs the evaluated item indices (`unevaluatedItems`). */
  collectsItems: boolean;
}

/** A keyword that acts on values at all (has an event hook); others are annotations or shapes only. */
export function acts(definition: KeywordDefinition): boolean {
  const {begin, scalar, key, item, end} = definition;
  return begin !== undefined || scalar !== undefined || key !== undefined || item !== undefined || end !== undefined;
}

const NO_KEYWORDS: readonly CompiledKeyword[] = Object.freeze([]);

/** A node with no keywords yet (compile fills them in after caching it, so cycles can point at it). */
export function newNode(resource: Resource, absoluteLocation: string): SchemaNode {
  return {
    id: resource.compilation.nodeCount++,
    absoluteLocation,
    resource,
    bool: undefined,
    keywords: NO_KEYWORDS,
    begin: NO_KEYWORDS,
    scalar: NO_KEYWORDS,
    key: NO_KEYWORDS,
    item: NO_KEYWORDS,
    end: NO_KEYWORDS,
    restate: NO_KEYWORDS,
    scalarLeaf: false,
    scalarAccepts: null,
    collectsProperties: false,
    collectsItems: false,
  };
}

/**
 * The keywords for which `wanted` holds: `keywords` itself when all do, and one shared empty list
 * when none does. A large `const` is a node per member, and six fresh lists per node were most
 * of its compile time.
 */
function keywordsWhere(keywords: readonly CompiledKeyword[], wanted: (keyword: CompiledKeyword) => boolean): readonly CompiledKeyword[] {
  const kept = keywords.filter(wanted);
  if (kept.length === 0) return NO_KEYWORDS;
  return kept.length === keywords.length ? keywords : kept;
}

/** Give a node its keywords, and derive what the evaluator precomputes from them. */
export function setKeywords(node: SchemaNode, keywords: readonly CompiledKeyword[]): void {
  node.keywords = keywords;
  node.begin = keywordsWhere(keywords, (keyword) => keyword.definition.begin !== undefined);
  node.scalar = keywordsWhere(keywords, (keyword) => keyword.definition.scalar !== undefined);
  node.key = keywordsWhere(keywords, (keyword) => keyword.definition.key !== undefined);
  node.item = keywordsWhere(keywords, (keyword) => keyword.definition.item !== undefined);
  node.end = keywordsWhere(keywords, (keyword) => keyword.definition.end !== undefined);
  node.restate = keywordsWhere(keywords, (keyword) => keyword.definition.restate !== undefined);
  node.collectsProperties = keywords.some((keyword) => keyword.definition.readsEvaluatedProperties === true);
  node.collectsItems = keywords.some((keyword) => keyword.definition.readsEvaluatedItems === true);
  node.scalarLeaf = !keywords.some((keyword) => keyword.definition.startsRunsOnScalars);
  const onScalars = keywordsWhere(keywords, ({definition}) => definition.begin !== undefined || definition.scalar !== undefined || definition.end !== undefined);
  node.scalarAccepts = onScalars.every((keyword) => keyword.definition.accepts !== undefined) ? onScalars : null;
  // A schema object whose keywords do nothing accepts everything, like `true`.
  if (keywords.length === 0) node.bool = true;
}

export interface CompiledKeyword<V = any> {
  readonly definition: KeywordDefinition<V>;
  /** Position in the node's keyword list: the slot of this keyword's per-run state. */
  readonly index: number;
  readonly value: V;
  readonly name: string;
  /** `'/' + name`, escaped, to build keyword locations without work at run time. */
  readonly path: string;
  readonly absoluteLocation: string;
}

/** How a keyword's value holds subschemas; the `$id` scan walks these and only these. */
export type SubschemaShape = 'schema' | 'schemaArray' | 'schemaMap' | 'schemaOrSchemaArray' | 'schemaOrStringArrayMap';

/**
 * One keyword, written once for both modes. Compile checks the value's shape and precomputes;
 * the hooks run as the instance's events arrive (value mode replays a parsed value as events).
 * A hook reports failure through `run.fail(...)`; subschemas are applied with
 * `run.applyInPlace(...)` (same instance location) or `run.applyToMember(...)` (the value of the
 * key or item just announced). Their outcome comes back through `result`.
 */
export interface KeywordDefinition<V = any> {
  readonly name: string;
  readonly subschemas?: SubschemaShape;
  /**
   * `result` does nothing for a member run that passed (properties, items...): a scalar member
   * checked by a leaf schema then settles without reporting (see Evaluator.checkLeaves).
   */
  readonly ignoresPassingMembers?: boolean;
  /**
   * `result` keeps a failed member run to look at later (`unevaluated*` decide at the container's
   * end). Other keywords are done with it when `result` returns, so a scalar's leaf check may reuse
   * its run (see Evaluator.checkLeaves).
   */
  readonly keepsFailedMembers?: boolean;
  /**
   * The errors of the subschema run in `slot` are never reported, only whether it failed (`not`,
   * `if`, `contains`...). Such a run, and all it starts, records no error units: building their
   * locations and positions cost 9% of a benchmark record whose `if` fails.
   */
  discardsErrors?(slot: number): boolean;
  /**
   * The subschema run in `slot` starts before it is known to apply (`then`/`else` until `if`
   * settles, `dependentSchemas` until the trigger arrives, `unevaluated*` candidates). `result`
   * hears of its `limit.recursion` as of a failure, and fails the run with it (`failWith`) only
   * once it comes to count. Any other keyword's run fails with a limited subschema run at once.
   */
  speculative?(slot: number): boolean;
  /** The subschema it applies depends on the dynamic scope (`$dynamicRef`, `$recursiveRef`). */
  readonly followsDynamicScope?: boolean;
  /**
   * Applies subschemas at the same location whose annotations count for `unevaluated*` (allOf,
   * $ref, if/then/else, dependentSchemas...). Without such a sibling, `unevaluated*` can decide
   * as each key or item arrives.
   */
  readonly annotatesInPlace?: boolean;
  /**
   * Marks an item evaluated only once its subschema run has passed, at the item's end (2020-12
   * `contains`): `unevaluatedItems` beside it cannot decide at the item's start.
   */
  readonly annotatesMatchedItems?: boolean;
  /**
   * Reads the names of the properties evaluated at its location (`unevaluatedProperties`): runs
   * there and in place below collect them (2020-12 core §11.3).
   */
  readonly readsEvaluatedProperties?: boolean;
  /** Reads the indices of the items evaluated at its location (`unevaluatedItems`, core §11.2). */
  readonly readsEvaluatedItems?: boolean;
  /** `begin` may apply subschemas in place on a scalar value (allOf, $ref, if...). */
  readonly startsRunsOnScalars?: boolean;
  /** Returns the compiled value, or undefined when the keyword has nothing to do. Throws SchemaError. */
  compile(value: unknown, context: KeywordContext): V | undefined;
  /** A value starts at this location (any kind; `run.kind` tells which). */
  begin?(run: Run, keyword: CompiledKeyword<V>): void;
  /** A scalar value (`run.evaluator.text` etc.), right after `begin`. */
  scalar?(run: Run, keyword: CompiledKeyword<V>): void;
  /**
   * What this keyword makes of a property name, from the schema alone (e.g. which subschema it
   * selects); undefined when the keyword ignores that name, so its `key` hook is not even called.
   * Cached per schema node and name (src/engine/keyPlan.ts): regexes and lookups run once per
   * distinct key. Its regular expressions run through `match`. `node`: the schema object the
   * keyword sits in.
   */
  classify?(keyword: CompiledKeyword<V>, name: string, match: Matcher, node: SchemaNode): unknown;
  /**
   * The keyword's verdict on a scalar value, without reporting: what its `begin`/`scalar`/`end`
   * hooks decide for a scalar, written once and used by those hooks. A scalar member checked only
   * by keywords with `accepts` is checked without a run (see Evaluator.checkLeaves).
   */
  accepts?(keyword: CompiledKeyword<V>, kind: Kind, scalar: Scalar): boolean;
  /**
   * Every string of more than this many code points gets the same verdict from this keyword,
   * whatever its text: -1 where every string does (`type`, the numeric keywords, `enum` and
   * `const` without strings), n for `maxLength: n` (all fail past it), undefined where the text
   * decides. Where every keyword applied to a string has a bound, it is decided once it is known
   * to be longer than all of them: at its opening quote for -1, else as it grows past them in a
   * session (src/engine/judgedByKind.ts).
   */
  stringsAlikePast?(keyword: CompiledKeyword<V>): number | undefined;
  /**
   * True when its verdict runs a function the caller gave (a custom keyword, a custom format),
   * which may answer differently another time: no engine keeps such a verdict for later.
   */
  callsCaller?(keyword: CompiledKeyword<V>): boolean;
  /**
   * What this keyword asks of an object or array, told to the text checker (src/engine/checker.ts) in
   * its terms: validateText's pass-only verdict, which runs no runs and no hooks. Keywords with
   * `accepts` are asked about scalars through it and need this only if they judge containers; a
   * keyword that acts and can be asked neither way makes the checker give up on the schema.
   */
  outline?(keyword: CompiledKeyword<V>, outline: Outline): void;
  /**
   * What this keyword changes in the value under the value options (`coerceTypes`, `useDefaults`,
   * `removeAdditional`), told to the amender (src/engine/amender.ts), which changes the tokens
   * before either engine sees them. The structure the amender follows (which subschemas apply to a
   * member, or in place) it reads from `outline`.
   */
  amend?(keyword: CompiledKeyword<V>, amendments: Amendments): void;
  /** An object key arrived. `plan` is what `classify` said of the name (undefined without `classify`). */
  key?(run: Run, keyword: CompiledKeyword<V>, name: string, plan: any): void;
  /** An array item starts at `index`. */
  item?(run: Run, keyword: CompiledKeyword<V>, index: number): void;
  /** The value is complete (after a scalar, or at the container's close). Subschemas have settled. */
  end?(run: Run, keyword: CompiledKeyword<V>): void;
  /** A subschema run this keyword started has settled (`child.failed` tells how). */
  result?(run: Run, keyword: CompiledKeyword<V>, child: Run): void;
  /**
   * The run failed and is about to report `errors`, every error raised in its schema object and
   * below: the errors it reports instead (`errorMessage`). Only for runs whose errors are read.
   */
  restate?(run: Run, keyword: CompiledKeyword<V>, errors: readonly OutputUnit[]): OutputUnit[];
}

/**
 * The terms in which a keyword describes itself to the text checker (KeywordDefinition.outline). Each
 * call adds a rule for the value at the keyword's location; node arguments are subschemas applied
 * at that same location, except where a member is said.
 */
export interface Outline {
  /**
   * Values pass only if their kind is in `mask`. Asked of objects and arrays; of scalars only for
   * keywords without `accepts` (a literal object fails a number).
   */
  kinds(mask: number): void;
  /**
   * The subschemas that apply to the value of property `name` (none: undefined), regular
   * expressions run through `match`. `annotates` (default true): the names selected count as
   * evaluated for `unevaluatedProperties`. `names`: the names it may select apart from others,
   * for code written per name (src/engine/programs.ts); given, `nodesOf` must select the same for
   * every other name (`properties`: nothing; `additionalProperties` beside no `patternProperties`:
   * its subschema), and the code then judges all those names with one member.
   */
  members(nodesOf: (name: string, match: Matcher) => readonly SchemaNode[] | undefined, annotates?: boolean, names?: Iterable<string>): void;
  /** Every property name, as a string, must satisfy `node`. */
  keyNames(node: SchemaNode): void;
  /** Every name in `names` must be present; with `trigger`, only when that property is present. */
  present(names: readonly string[], trigger?: string): void;
  /** An object has from `min` to `max` properties. */
  propertyCount(min: number, max: number): void;
  /**
   * The subschemas that apply to the item at `index` (none: undefined). `annotates` (default
   * true): the items selected count as evaluated for `unevaluatedItems`. `alikeFrom`: from this
   * index on, `nodesAt` selects the same subschemas at every index (default: none is known to).
   */
  items(nodesAt: (index: number) => readonly SchemaNode[] | undefined, annotates?: boolean, alikeFrom?: number): void;
  /** An array has from `min` to `max` items. */
  itemCount(min: number, max: number): void;
  /** No two items are equal (uniqueItems). */
  distinctItems(): void;
  /**
   * From `min` to `max` items satisfy `node` (contains). `annotates`: the items that do count as
   * evaluated for `unevaluatedItems` (2020-12).
   */
  tally(node: SchemaNode, min: number, max: number, annotates: boolean): void;
  /**
   * Properties that no `members` rule of this schema object and its in-place subschemas selects
   * satisfy `node` (unevaluatedProperties; its keyword comes last in the draft tables).
   */
  unevaluatedMembers(node: SchemaNode): void;
  /** The same for items and the `items` rules (unevaluatedItems). */
  unevaluatedItems(node: SchemaNode): void;
  /**
   * Objects or arrays (the kinds in `mask`) here are judged whole by a predicate the checker does
   * not run (a custom keyword, CompileOptions.keywords): a document with one here goes to the
   * evaluator.
   */
  judgedWhole(mask: number): void;
  /** `node` applies here too (allOf, $ref). */
  all(node: SchemaNode): void;
  /**
   * The subschema `resolve` picks applies here too; it picks from the dynamic scope, the schema
   * resources on the way here, innermost first ($dynamicRef, $recursiveRef).
   */
  dynamic(resolve: (scope: Iterable<Resource>) => SchemaNode): void;
  /** At least one of `nodes` passes (anyOf); with `exactly`, exactly one (oneOf). */
  some(nodes: readonly SchemaNode[], exactly: boolean): void;
  /** `node` fails (not). */
  none(node: SchemaNode): void;
  /** If `condition` passes, `then` applies; else `otherwise`. */
  conditional(condition: SchemaNode, then: SchemaNode | undefined, otherwise: SchemaNode | undefined): void;
  /** If property `trigger` is present, `node` applies (dependentSchemas). */
  when(trigger: string, node: SchemaNode): void;
}

/**
 * An Outline that notes nothing: what reads outlines for one purpose (what the value options
 * change, what in-place subschemas evaluate) extends it and overrides the terms it reads.
 */
export class OutlineReader implements Outline {
  kinds(_mask: number): void {}
  members(_nodesOf: (name: string, match: Matcher) => readonly SchemaNode[] | undefined, _annotates?: boolean, _names?: Iterable<string>): void {}
  keyNames(_node: SchemaNode): void {}
  present(_names: readonly string[], _trigger?: string): void {}
  propertyCount(_min: number, _max: number): void {}
  items(_nodesAt: (index: number) => readonly SchemaNode[] | undefined, _annotates?: boolean, _alikeFrom?: number): void {}
  itemCount(_min: number, _max: number): void {}
  distinctItems(): void {}
  tally(_node: SchemaNode, _min: number, _max: number, _annotates: boolean): void {}
  unevaluatedMembers(_node: SchemaNode): void {}
  unevaluatedItems(_node: SchemaNode): void {}
  judgedWhole(_mask: number): void {}
  all(_node: SchemaNode): void {}
  dynamic(_resolve: (scope: Iterable<Resource>) => SchemaNode): void {}
  some(_nodes: readonly SchemaNode[], _exactly: boolean): void {}
  none(_node: SchemaNode): void {}
  conditional(_condition: SchemaNode, _then: SchemaNode | undefined, _otherwise: SchemaNode | undefined): void {}
  when(_trigger: string, _node: SchemaNode): void {}
}

/** What `Coercion.coerce` makes of a scalar that ajv's table turns into an array of itself. */
export const WRAP_IN_ARRAY: unique symbol = Symbol('wrap in array');

/** A scalar's value as coercion reads and makes it: a JSON scalar, numbers as doubles. */
export type Coerced = string | number | boolean | null | typeof WRAP_IN_ARRAY | undefined;

/** What `type` does under `coerceTypes` (ajv's coercion table): the keyword's own rule, in its file. */
export interface Coercion {
  /** The value already has one of the types: it stays as it is. */
  accepts(kind: Kind, scalar: Scalar): boolean;
  /** A scalar of none of the types as one of them, tried in the order written; undefined: none fits. */
  coerce(kind: Kind, scalar: Scalar): Coerced;
  /** An array of one item that has none of the types becomes its item (`coerceTypes: 'array'`). */
  readonly unwraps: boolean;
  /** The item taken out of such an array has one of the types: it stays as it is (else `coerce` tries). */
  acceptsUnwrapped(kind: Kind, scalar: Scalar): boolean;
}

/** Additional properties that `removeAdditional` takes out of an object. */
export interface Removal {
  /**
   * The names this schema object calls additional: neither its `properties` nor its
   * `patternProperties` lists them (regular expressions through `match`).
   */
  isAdditional(name: string, match: Matcher): boolean;
  /** null: every additional property goes; a node: only those whose value fails it (`'failing'`). */
  readonly failing: SchemaNode | null;
}

/**
 * The terms in which a keyword tells the amender what the value options change
 * (KeywordDefinition.amend). Each call is about the value at the keyword's location.
 */
export interface Amendments {
  /** The value is coerced by `coercion` (`type` under `coerceTypes`). */
  coerce(coercion: Coercion): void;
  /**
   * A property missing from the object gets `value` (`properties` under `useDefaults`);
   * `replacesEmpty` (`'empty'`): so does one whose value is null or "".
   */
  propertyDefault(name: string, value: unknown, replacesEmpty: boolean): void;
  /** The same for the item at `index` of an array (array-form `items`). */
  itemDefault(index: number, value: unknown, replacesEmpty: boolean): void;
  /** Additional properties are taken out (`removeAdditional`). */
  remove(removal: Removal): void;
}

export interface KeywordContext {
  /** The schema object the keyword sits in, to read its siblings. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** JSON pointer of the keyword, prefixed with the resource URI when not the root. */
  readonly location: string;
  readonly draft: DraftTable;
  readonly options: Readonly<CompileOptions>;
  readonly formats: ReadonlyMap<string, FormatCheck>;
  /** The meta-schema enables the format-assertion vocabulary (2020-12 validation §7.2.2). */
  readonly assertFormats: boolean;
  /** Absolute location of the keyword (for sub-locations). */
  readonly absoluteLocation: string;
  /** Compile the subschema found at `relativePath` below this keyword. */
  subschema(value: unknown, relativePath: string): SchemaNode;
  /** Compile the schema held by a sibling keyword (e.g. `then` beside `if`), checking its shape. */
  sibling(name: string): SchemaNode;
  /** Resolve a reference against the current base URI to a compiled node. */
  reference(ref: string): SchemaNode;
  /** The URI `ref` resolves to, against the current base. */
  resolve(ref: string): string;
  /** The resource this keyword is in. */
  readonly resource: Resource;
  /** Compile a JSON literal into a node that accepts exactly that value (for `enum`, `const`). */
  literal(value: unknown, relativePath: string): SchemaNode;
  /**
   * The regular expression `source` with the `u` flag, one per source in a compile: keywords that
   * run one source (`patternProperties` and `additionalProperties` beside it) hold one RegExp, so a
   * document runs it once per string (src/engine/patterns.ts). Throws SyntaxError.
   */
  regExp(source: string): RegExp;
  /** Throw a SchemaError at this keyword (or below it, with `relativePath`). */
  fail(reason: string, relativePath?: string): never;
  /**
   * The keyword's annotation is `value` wherever it applies (2020-12 core §7.7: by default, the
   * keyword's own value). Kept, and reported at each value the keyword's schema passes, only when
   * annotations are collected (CompileOptions.annotations); else nothing is made of it.
   */
  annotate(value: unknown): void;
}

/** How a draft spells the keywords that identify schemas (2020-12 core §8.2), where it has them. */
export interface Identifiers {
  /** Opens a resource (`id` in draft 4, `$id` later). */
  readonly id: string;
  /** Names a plain-name fragment (`$anchor`, 2019-09 on; earlier drafts use a fragment-only `$id`). */
  readonly anchor?: string;
  /** Names a dynamic anchor for `$dynamicRef` (`$dynamicAnchor`, 2020-12). */
  readonly dynamicAnchor?: string;
  /** `true` at a resource root marks it for `$recursiveRef` (`$recursiveAnchor`, 2019-09). */
  readonly recursiveAnchor?: string;
  /** Makes its siblings ignored where present (`$ref` before 2019-09). */
  readonly hidesSiblings?: string;
  /** Hold schemas to be found by reference even in drafts that give them no meaning (`definitions`, `$defs`). */
  readonly schemaHolders: readonly string[];
}

/** A draft is a table: which keywords exist and which definition each uses. */
export interface DraftTable {
  readonly name: import('../types.js').Draft;
  /** Meta-schema URI (without `#`). */
  readonly metaSchema: string;
  /** The keywords compile reads as it scans a schema for resources and anchors, by role. */
  readonly identifiers: Identifiers;
  /** Keywords that act, in evaluation order (`unevaluated*` last: they read everyone's annotations). */
  readonly keywords: ReadonlyMap<string, KeywordDefinition>;
  /** Keywords known to the draft that have no effect on validation (annotations, `$comment`...). */
  readonly annotations: ReadonlySet<string>;
  /** Vocabulary URI → the keyword names it brings (2019-09 and later). */
  readonly vocabularies?: ReadonlyMap<string, readonly string[]>;
}

/**
 * A verdict on whether `pattern` (ECMA-262, unanchored) matches `text`, as the document runs its
 * patterns: each once per string it applies to (src/engine/patterns.ts).
 */
export type Matcher = (pattern: RegExp, text: string) => boolean;

/** A `pattern` keyword's expression, with its twin for a string read where it stands in the text. */
export interface StringPattern {
  readonly regExp: RegExp;
  /** `regExp` run from a plain string's first character in the JSON text, where that gives its verdict (src/keywords/rules/inPlacePattern.ts); else null. */
  readonly inPlace: RegExp | null;
}

/** The scalar being delivered, as a keyword reads it (`accepts`, and the hooks through Instance). */
export interface Scalar {
  /** The string being delivered. */
  readonly text: string;
  /** Its length in UTF-16 code units (`text.length`), known without making `text`. */
  readonly units: number;
  /** Its length in Unicode code points (2020-12 validation §6.3.1), counted without making `text`. */
  codePoints(): number;
  /**
   * The string being delivered matches `pattern` (ECMA-262, unanchored). Asked of the document,
   * which runs each pattern once per string whichever engine asks (src/engine/patterns.ts).
   */
  matches(pattern: StringPattern): boolean;
  /** The boolean being delivered. */
  readonly booleanValue: boolean;
  /** The number being delivered, as a double. */
  number(): number;
  /** The number being delivered, as its JSON text. */
  numberText(): string;
  /** The number being delivered equals the double `other`, exactly (text may be more precise). */
  numberEquals(other: number): boolean;
  /** The number being delivered against a bound: -1 below, 0 equal, 1 above, exactly. */
  compareNumber(limit: number, limitDecimal: Decimal | undefined): number;
  /** The number being delivered is whole (1.0 and 1e2 included). */
  isInteger(): boolean;
}

/**
 * What a keyword's hooks may read of the value being delivered at their location, and ask of the
 * engine there. The evaluator (src/engine/evaluator.ts) implements it.
 */
export interface Instance extends Scalar {
  /** Properties or items seen so far in the innermost open container. */
  count(): number;
  /** The key of the member being delivered at instance depth `depth` (default: the innermost). */
  currentKey(depth?: number): string;
  /** Apply `node` to the string `text` (a property name, for `propertyNames`), reporting to `parent`. */
  applyToString(parent: Run, node: SchemaNode, keyword: CompiledKeyword, text: string, viaPath: string): void;
  /** Hash each item of the array at `run`'s location and tell `listener` its fingerprint (`uniqueItems`). */
  fingerprintItem(run: Run, keyword: CompiledKeyword, listener: FingerprintListener): void;
  /**
   * Assemble the object or array that just began at `run`'s location (from a `begin` hook), from
   * its tokens, for `assembled` to give at its end. Only while `run` has not settled. More than
   * `maxValues` values in it (scalars, objects and arrays) is a `limit.assembled` error.
   */
  assemble(run: Run, keyword: CompiledKeyword, maxValues: number): void;
  /**
   * The value `assemble` was asked to build for `run` and `keyword`, complete (from an `end`
   * hook); it is no longer kept. NOT_ASSEMBLED when none was asked for.
   */
  assembled(run: Run, keyword: CompiledKeyword): unknown;
  /**
   * The error to throw for input past a limit a keyword keeps (`uniqueItems`): a `limit` error at
   * the current position, for the value at instance depth `depth`. It ends the document.
   */
  limitError(code: string, message: string, depth: number): InputError;
}

/** What Instance.assembled gives when no value was assembled. */
export const NOT_ASSEMBLED: unique symbol = Symbol('not assembled');

/** Told each item's fingerprint (Instance.fingerprintItem): equal JSON values, equal fingerprints. */
export interface FingerprintListener {
  fingerprinted(run: Run, keyword: CompiledKeyword, index: number, fingerprint: number): void;
}

/** The item indices evaluated at one location (2020-12 core §11.2 annotations). */
export interface EvaluatedItems {
  has(index: number): boolean;
  add(index: number): void;
}

/**
 * One schema node applied at one instance location, as its keywords see it (the evaluator's Run).
 * A keyword fails it, keeps state in it, and applies subschemas through it; their outcome comes
 * back to the keyword's `result` hook as another Run.
 */
export interface Run {
  readonly node: SchemaNode;
  readonly parent: Run | null;
  /** Which of the starting keyword's subschemas this run applies. */
  readonly slot: number;
  /** Depth of the instance location (0 = the document). */
  readonly depth: number;
  /** The kind of the value at this location, once it began. */
  readonly kind: Kind | 0;
  readonly settled: boolean;
  readonly failed: boolean;
  readonly evaluator: Instance;
  /** Names of the properties evaluated here, when someone needs them (`unevaluatedProperties`). */
  readonly evaluatedProperties: Set<string> | null;
  readonly evaluatedItems: EvaluatedItems | null;
  /** Keyword location of this run's schema object through the evaluation path (`$ref`s included). */
  location(): string;
  /** JSON pointer of the value at this run's location. */
  instanceLocation(): string;
  /**
   * The schema resources of the dynamic scope this run applies its node in, innermost first, each
   * once, where it was first entered: all that `$dynamicRef` and `$recursiveRef` read (the
   * outermost with the anchor wins).
   */
  dynamicScope(): Iterable<Resource>;
  /**
   * An error of `keyword` at this run's location (or at its member `memberLocation`), placed where
   * the input is now, without failing the run: for `restate`.
   */
  errorUnit(keyword: CompiledKeyword, message: string, params?: Record<string, unknown>, memberLocation?: string): OutputUnit;
  /** Fail this run with an error of `keyword` (at the member `memberLocation`, if given). */
  fail(keyword: CompiledKeyword, message: string, params?: Record<string, unknown>, memberLocation?: string): void;
  /** Fail this run because `child` failed: its errors become this run's. */
  failWith(child: Run): void;
  /** Add `child`'s errors to this run's without failing it yet (`anyOf` keeps its branches'). */
  collectErrors(child: Run): void;
  /**
   * A passing subschema run's annotations become this run's (2020-12 core §7.7.1.3): the output's
   * annotations from any subschema; the evaluated properties and items (§11) only from one applied
   * in place. Called by the keyword that applied it, once the run counts.
   */
  mergeAnnotations(sub: Run): void;
  /** The output annotations collected so far (null: none, or not collected). */
  readonly annotations: readonly AnnotationUnit[] | null;
  /** Record `keyword`'s annotation `annotation` for the value at this run's location. */
  annotate(keyword: CompiledKeyword, annotation: unknown): void;
  /** The keyword's state in this run, made by `create` on first use. */
  state<T>(keyword: CompiledKeyword, create: () => T): T;
  peekState<T>(keyword: CompiledKeyword): T | undefined;
  /** Apply `node` at this same location (in-place applicators; only from `begin`). */
  applyInPlace(node: SchemaNode, keyword: CompiledKeyword, slot: number, viaPath: string): Run;
  /** Stop this run and everything it started: its outcome no longer matters (`if` decided). */
  abandon(): void;
  /** Apply `node` to the value of the key or item just announced. */
  applyToMember(node: SchemaNode, keyword: CompiledKeyword, slot: number, viaPath: string): void;
}

