// fast-check generators for the isolation tests: schemas over the whole vocabulary of draft 7,
// 2019-09 and 2020-12 (refs and recursion included), compile options with small limits, and
// documents: well-formed JSON from a schema-agnostic generator and from one that follows the
// schema, and hostile mutations of both (truncated at any byte, corrupted, repeated keys, trailing
// content, past a limit, invalid UTF-8). Schemas and documents draw names and values from the
// same pools, so documents reach the subschemas the schemas hang on those names.

import fc from 'fast-check';
import {defaultLimits} from '../../src/index.js';
import type {CompileOptions, Draft, Limits} from '../../src/types.js';
import {formatsFor} from '../../src/formats/index.js';

// ---------------------------------------------------------------------------------------------
// Pools shared by schemas and documents

/** Property names; `é` is two UTF-8 bytes, so chunk boundaries fall inside keys too. */
const names = ['a', 'b', 'c', 'ab', 'x-1', 'x-2', '1', 'é', 'name', 'role', 'data'];
const patterns = ['^x-', 'a', '^[a-c]$', '[0-9]', 'b$', '^.{0,2}$', 'é'];
/** Literal texts of scalars: the numbers are ones whose text matters (1.0, -0, 1e3, past 2^53). */
const scalarTexts = [
  '0', '1', '-1', '2', '2.5', '1.0', '-0', '1e3', '0.1', '100000000000000000001', '12345678.75',
  '"a"', '"b"', '""', '"é€"', '"😀"', '"x-1"', '"user"', '"admin"', '"2020-01-01"', '"a@b.c"', '"1.2.3.4"', '"\\u0000\\n"',
  'null', 'true', 'false',
];
const scalars: unknown[] = scalarTexts.map((text) => JSON.parse(text));
const formats = ['date', 'date-time', 'email', 'ipv4', 'ipv6', 'uri', 'uuid', 'hostname', 'regex', 'json-pointer', 'duration', 'time'];
const types = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];

/** Any place in a document, whatever its length: `at % length` is spread evenly (fc.nat() keeps to small numbers). */
export const positionArbitrary = fc.noBias(fc.integer({min: 0, max: 0x7fffffff}));

// ---------------------------------------------------------------------------------------------
// Schemas

/** The drafts the schema generator writes for. */
type SchemaDraft = 'draft7' | 'draft2019-09' | 'draft2020-12';
const schemaDrafts: readonly SchemaDraft[] = ['draft7', 'draft2019-09', 'draft2020-12'];

const ROOT_ID = 'https://example.com/root';
const DEF_COUNT = 3;
/** The definition that is a resource of its own (`$id: inner`), with its own dynamic/recursive anchor. */
const INNER = 2;

/**
 * A `$ref` (or `$dynamicRef` / `$recursiveRef`) before it is resolved: `resolveRefs` turns it into
 * a reference that cannot make an in-place cycle, given where it stands.
 */
class RefMark {
  constructor(
    readonly target: number,
    readonly dynamic: boolean,
  ) {}
}

type Fragment = Record<string, unknown>;

/** Schema keywords whose subschemas apply to a member of the instance (a key, a property value, an item). */
const descending = new Set([
  'properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames',
  'items', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'contains',
]);
/** Keywords whose value is a map from names or patterns to subschemas. */
const schemaMaps = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions']);
/** Keywords whose value is an array of subschemas. */
const schemaArrays = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value is one subschema. */
const singleSchemas = new Set([
  'additionalProperties', 'unevaluatedProperties', 'propertyNames', 'items', 'additionalItems', 'unevaluatedItems', 'contains',
  'not', 'if', 'then', 'else',
]);

/** Each keyword (or keywords that go together) as a fragment of a schema object; `objectShape` also apart. */
function keywordArbitraries(draft: SchemaDraft, schema: fc.Arbitrary<unknown>): {keywords: fc.Arbitrary<Fragment>[]; objectShape: fc.Arbitrary<Fragment>} {
  const name = fc.constantFrom(...names);
  const someNames = fc.uniqueArray(name, {minLength: 1, maxLength: 3});
  const schemaMap = (keys: fc.Arbitrary<string>): fc.Arbitrary<Fragment> =>
    fc.uniqueArray(fc.tuple(keys, schema), {minLength: 1, maxLength: 3, selector: ([key]) => key}).map((entries) => Object.fromEntries(entries));
  const literal = fc.oneof(fc.constantFrom(...scalars), fc.dictionary(name, fc.constantFrom(...scalars), {maxKeys: 2}), fc.array(fc.constantFrom(...scalars), {maxLength: 2}));
  const smallCount = fc.integer({min: 0, max: 3});
  const bound = fc.constantFrom(-1, 0, 1, 2, 2.5, 1000);
  const modern = draft !== 'draft7';
  // The shape most schemas have: listed properties, some required, maybe no others.
  const objectShape = schemaMap(name).chain((properties) =>
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.constant(properties),
        required: fc.subarray(Object.keys(properties)),
        additionalProperties: fc.oneof(fc.constant(false), schema),
      },
      {requiredKeys: ['properties', 'required']},
    ),
  );
  const common: fc.Arbitrary<Fragment>[] = [
    objectShape,
    objectShape,
    objectShape,
    fc.record({type: fc.constant('array'), items: schema, maxItems: smallCount}, {requiredKeys: ['type', 'items']}),
    fc.oneof(fc.constantFrom(...types), fc.uniqueArray(fc.constantFrom(...types), {minLength: 1, maxLength: 3})).map((type) => ({type})),
    fc.uniqueArray(literal, {minLength: 1, maxLength: 3, selector: (value) => JSON.stringify(value)}).map((values) => ({enum: values})),
    literal.map((value) => ({const: value})),
    schemaMap(name).map((properties) => ({properties})),
    schemaMap(fc.constantFrom(...patterns)).map((patternProperties) => ({patternProperties})),
    schema.map((additionalProperties) => ({additionalProperties})),
    someNames.map((required) => ({required})),
    schema.map((propertyNames) => ({propertyNames})),
    smallCount.map((minProperties) => ({minProperties})),
    smallCount.map((maxProperties) => ({maxProperties})),
    schema.map((contains) => ({contains})),
    fc.boolean().map((uniqueItems) => ({uniqueItems})),
    smallCount.map((minItems) => ({minItems})),
    smallCount.map((maxItems) => ({maxItems})),
    fc.array(schema, {minLength: 1, maxLength: 3}).map((allOf) => ({allOf})),
    fc.array(schema, {minLength: 1, maxLength: 3}).map((anyOf) => ({anyOf})),
    fc.array(schema, {minLength: 1, maxLength: 3}).map((oneOf) => ({oneOf})),
    schema.map((not) => ({not})),
    fc.record({if: schema, then: schema, else: schema}, {requiredKeys: ['if']}),
    smallCount.map((minLength) => ({minLength})),
    smallCount.map((maxLength) => ({maxLength})),
    fc.constantFrom(...patterns).map((pattern) => ({pattern})),
    // The draft's own formats: asserting one it does not know is a SchemaError.
    fc.constantFrom(...formats.filter((format) => formatsFor(draft).has(format))).map((format) => ({format})),
    bound.map((minimum) => ({minimum})),
    bound.map((maximum) => ({maximum})),
    bound.map((exclusiveMinimum) => ({exclusiveMinimum})),
    bound.map((exclusiveMaximum) => ({exclusiveMaximum})),
    fc.constantFrom(2, 0.5, 0.01, 3).map((multipleOf) => ({multipleOf})),
    fc.constantFrom(0, 1).map((target) => ({$ref: new RefMark(target, false)})),
    fc.constant({$ref: new RefMark(0, true)}),
    fc.constantFrom('a title', 'described').map((title) => ({title, default: 1, examples: [title]})),
  ];
  const legacyItems = [
    fc.oneof(schema, fc.array(schema, {minLength: 1, maxLength: 3})).map((items) => ({items})),
    fc.record({items: fc.array(schema, {minLength: 1, maxLength: 2}), additionalItems: schema}),
  ];
  if (!modern) {
    const dependencies = fc.dictionary(name, fc.oneof(fc.uniqueArray(name, {maxLength: 2}), schema), {minKeys: 1, maxKeys: 2}).map((dependencies) => ({dependencies}));
    return {keywords: [...common, ...legacyItems, dependencies], objectShape};
  }
  const laterCommon = [
    ...common,
    fc.dictionary(name, fc.uniqueArray(name, {maxLength: 2}), {minKeys: 1, maxKeys: 2}).map((dependentRequired) => ({dependentRequired})),
    schemaMap(name).map((dependentSchemas) => ({dependentSchemas})),
    fc.record({contains: schema, minContains: smallCount, maxContains: smallCount}, {requiredKeys: ['contains']}),
    schema.map((unevaluatedProperties) => ({unevaluatedProperties})),
    schema.map((unevaluatedItems) => ({unevaluatedItems})),
  ];
  if (draft === 'draft2019-09') return {keywords: [...laterCommon, ...legacyItems], objectShape};
  const items = [
    schema.map((items) => ({items})),
    fc.record({prefixItems: fc.array(schema, {minLength: 1, maxLength: 3}), items: schema}, {requiredKeys: ['prefixItems']}),
  ];
  return {keywords: [...laterCommon, ...items], objectShape};
}

/**
 * A subschema: boolean, a reference, or one to three keywords (a leaf past the depth bound); and
 * a root, which more often than not describes an object by its properties.
 */
function subschemaArbitraries(draft: SchemaDraft): {schema: fc.Arbitrary<unknown>; root: fc.Arbitrary<Fragment>} {
  const leaf = fc.oneof(
    fc.boolean(),
    fc.constantFrom(0, 1, 2).map((target) => new RefMark(target, false)),
    fc.constant(new RefMark(0, true)),
    fc.constantFrom(...types).map((type) => ({type})),
    fc.constantFrom(...scalars).map((value) => ({const: value})),
  );
  const merge = (fragments: Fragment[]): Fragment => Object.assign({}, ...fragments);
  const {schema} = fc.letrec<{schema: unknown}>((tie) => ({
    schema: fc.oneof(
      {maxDepth: 3, depthIdentifier: 'schema', depthSize: 'small'},
      leaf,
      fc.array(fc.oneof(...keywordArbitraries(draft, tie('schema')).keywords), {minLength: 1, maxLength: 3}).map(merge),
    ),
  }));
  const {keywords, objectShape} = keywordArbitraries(draft, schema);
  const keyword = fc.oneof(...keywords);
  const root = fc.tuple(fc.oneof({weight: 3, arbitrary: objectShape}, {weight: 2, arbitrary: keyword}), fc.array(keyword, {maxLength: 2})).map(([first, rest]) => merge([first, ...rest]));
  return {schema, root};
}

/** Where a reference stands: which resource, and whether a member was entered since its start. */
interface RefContext {
  /** -1 for the root, else the definition's index. */
  definition: number;
  descended: boolean;
}

function defsKeyword(draft: SchemaDraft): string {
  return draft === 'draft7' ? 'definitions' : '$defs';
}

/**
 * Turn RefMarks into references. In place (no member entered since the resource began) the root
 * may name any definition and definition i only those after it; below a member, anything,
 * including the root and the dynamic or recursive reference: the instance is finite, so that
 * recursion ends.
 */
function resolveRefs(draft: SchemaDraft, schema: unknown, context: RefContext): unknown {
  if (schema instanceof RefMark) return referenceTo(draft, schema, context);
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const resolved: Fragment = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (value instanceof RefMark && keyword === '$ref') {
      Object.assign(resolved, referenceTo(draft, value, context));
      continue;
    }
    const below: RefContext = descending.has(keyword) ? {...context, descended: true} : context;
    if (schemaMaps.has(keyword)) {
      resolved[keyword] = Object.fromEntries(
        Object.entries(value as Fragment).map(([key, subschema]) => [key, Array.isArray(subschema) ? subschema : resolveRefs(draft, subschema, below)]),
      );
    } else if (schemaArrays.has(keyword) && Array.isArray(value)) resolved[keyword] = value.map((subschema) => resolveRefs(draft, subschema, below));
    else if (singleSchemas.has(keyword)) resolved[keyword] = resolveRefs(draft, value, below);
    else resolved[keyword] = value;
  }
  return withRefAlone(draft, resolved);
}

function withRefAlone(draft: SchemaDraft, schema: Fragment): Fragment {
  return draft === 'draft7' ? refAlone(schema) : schema;
}

/** Draft 7 ignores the siblings of `$ref` (`$id` included): a `$ref` among other keywords moves into `allOf`. */
function refAlone(schema: Fragment): Fragment {
  if (!('$ref' in schema) || Object.keys(schema).length === 1) return schema;
  const {$ref, allOf, ...rest} = schema;
  return {...rest, allOf: [...((allOf as unknown[] | undefined) ?? []), {$ref}]};
}

function referenceTo(draft: SchemaDraft, mark: RefMark, context: RefContext): Fragment | boolean {
  if (mark.dynamic) {
    if (!context.descended) return true;
    if (draft === 'draft2020-12') return {$dynamicRef: '#node'};
    if (draft === 'draft2019-09') return {$recursiveRef: '#'};
    return {$ref: 'root'};
  }
  const targets = Array.from({length: DEF_COUNT}, (_, index) => index).filter((index) => context.descended || index > context.definition);
  if (context.descended) targets.push(-1);
  if (targets.length === 0) return true;
  const target = targets[mark.target % targets.length]!;
  if (target === -1) return {$ref: 'root'};
  if (target === INNER) return {$ref: 'inner'};
  // Definition 0 carries an anchor: name it by anchor or by pointer.
  if (target === 0 && mark.target % 2 === 1) return {$ref: 'root#anchor0'};
  return {$ref: `root#/${defsKeyword(draft)}/d${target}`};
}

/** The identifiers and anchors a definition carries (definition 0 an anchor, INNER a resource of its own). */
function definitionHeader(draft: SchemaDraft, index: number): Fragment {
  if (index === 0) return draft === 'draft7' ? {$id: '#anchor0'} : {$anchor: 'anchor0'};
  if (index !== INNER) return {};
  if (draft === 'draft2020-12') return {$id: 'inner', $dynamicAnchor: 'node'};
  if (draft === 'draft2019-09') return {$id: 'inner', $recursiveAnchor: true};
  return {$id: 'inner'};
}

function asObject(schema: unknown): Fragment {
  if (typeof schema === 'object' && schema !== null) return schema as Fragment;
  // A boolean subschema becomes an object, so that a header fits.
  return schema === false ? {not: {}} : {};
}

/** A whole schema document for `draft`: a root with `$defs` (or `definitions`) that refer to each other and to the root. */
export function schemaArbitrary(draft: SchemaDraft): fc.Arbitrary<Fragment> {
  const {schema: subschema, root: rootSchema} = subschemaArbitraries(draft);
  return fc.tuple(rootSchema, fc.array(subschema, {minLength: DEF_COUNT, maxLength: DEF_COUNT})).map(([root, definitions]) => {
    const rootHeader: Fragment = {$schema: metaSchema(draft), $id: ROOT_ID};
    if (draft === 'draft2020-12') rootHeader.$dynamicAnchor = 'node';
    if (draft === 'draft2019-09') rootHeader.$recursiveAnchor = true;
    const defs = Object.fromEntries(
      definitions.map((definition, index) => [`d${index}`, withRefAlone(draft, {...definitionHeader(draft, index), ...asObject(resolveRefs(draft, definition, {definition: index, descended: false}))})]),
    );
    return withRefAlone(draft, {...rootHeader, ...asObject(resolveRefs(draft, root, {definition: -1, descended: false})), [defsKeyword(draft)]: defs});
  });
}

function metaSchema(draft: SchemaDraft): string {
  if (draft === 'draft7') return 'http://json-schema.org/draft-07/schema#';
  return `https://json-schema.org/draft/${draft.slice('draft'.length)}/schema`;
}

/** Limits small enough for generated documents to cross them. */
const smallLimitsArbitrary: fc.Arbitrary<Required<Limits>> = fc.record({
  maxDepth: fc.integer({min: 3, max: 8}),
  maxStringLength: fc.integer({min: 4, max: 40}),
  maxKeyLength: fc.integer({min: 2, max: 12}),
  maxProperties: fc.integer({min: 2, max: 8}),
  maxNumberLength: fc.integer({min: 3, max: 24}),
  maxUniqueItems: fc.integer({min: 2, max: 8}),
  // 'reject' refuses a number that a double cannot hold exactly (100000000000000000001 in the pools).
  inexactNumbers: fc.constantFrom<'allow' | 'reject'>('allow', 'allow', 'reject'),
  // maxApplications at its default: the fast verdict does not count applications (a document it
  // passes is not refused by the count), so a bound small enough to cross would part the modes.
}).map((limits) => ({...limits, maxAssembledValues: defaultLimits.maxAssembledValues, maxApplications: defaultLimits.maxApplications}));

/**
 * A deep copy of a generated schema, each object with its prototype. fast-check makes some
 * dictionaries (a `const` or `enum` object among them) with a null prototype; structuredClone gives
 * the copy Object.prototype instead, and an error's `params` shows the literal itself, so a
 * validator of the copy told a document something that differed from the original's by that alone.
 */
export function copySchema<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copySchema) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  for (const [key, member] of Object.entries(value)) Object.defineProperty(copy, key, {value: copySchema(member), enumerable: true, writable: true, configurable: true});
  return copy as T;
}

/** A schema with the options it is compiled with, and the limits in force. */
export interface SchemaCase {
  schema: Fragment;
  options: CompileOptions;
  limits: Required<Limits>;
}

/**
 * Schemas with compile options: any draft, sometimes `allErrors`, formats annotated or asserted,
 * default or small limits. A front door without an option (the CLI has no limits and no format
 * assertion) asks for cases without it.
 */
export function schemaCases(offers: {limits: boolean; formats: boolean} = {limits: true, formats: true}): fc.Arbitrary<SchemaCase> {
  return fc
    .record({
      draft: fc.constantFrom(...schemaDrafts),
      // allErrors reads every document to its end, a path of its own; most callers stop at the first error.
      allErrors: fc.constantFrom(false, false, false, true),
      formats: offers.formats ? fc.constantFrom<'annotate' | 'assert'>('annotate', 'assert') : fc.constant<'annotate'>('annotate'),
      limits: offers.limits ? fc.option(smallLimitsArbitrary, {nil: undefined, freq: 2}) : fc.constant(undefined),
    })
    .chain(({draft, allErrors, formats, limits}) =>
      schemaArbitrary(draft).map((schema) => {
        const options: CompileOptions = {draft: draft satisfies Draft, allErrors, formats};
        if (limits !== undefined) options.limits = limits;
        return {schema, options, limits: {...defaultLimits, ...limits}};
      }),
    );
}

export const schemaCaseArbitrary = schemaCases();

// ---------------------------------------------------------------------------------------------
// Documents

/** A JSON text's syntax tree: objects keep their members in order, repeated keys included. */
export type JsonTree = {scalar: string} | {items: JsonTree[]} | {members: [string, JsonTree][]};

const documentKeys = [...names, '__proto__', 'zz', 'a1'];

/** Schema-agnostic JSON: names from the pool and a few others, scalars of every kind. */
const jsonTreeArbitrary: fc.Arbitrary<JsonTree> = fc.letrec<{tree: JsonTree}>((tie) => ({
  tree: fc.oneof(
    {maxDepth: 4, depthIdentifier: 'json', depthSize: 'small'},
    fc.oneof(
      {weight: 4, arbitrary: fc.constantFrom(...scalarTexts)},
      {weight: 1, arbitrary: fc.string({unit: 'grapheme', maxLength: 6}).map((text) => JSON.stringify(text))},
      {weight: 1, arbitrary: fc.integer().map(String)},
      {weight: 1, arbitrary: fc.double({noNaN: true, noDefaultInfinity: true}).map((value) => JSON.stringify(value))},
    ).map((scalar): JsonTree => ({scalar})),
    fc.array(tie('tree'), {maxLength: 4}).map((items): JsonTree => ({items})),
    fc
      .uniqueArray(fc.tuple(fc.oneof({weight: 5, arbitrary: fc.constantFrom(...documentKeys)}, {weight: 1, arbitrary: fc.string({maxLength: 4})}), tie('tree')), {
        maxLength: 5,
        selector: ([key]) => key,
      })
      .map((members): JsonTree => ({members})),
  ),
})).tree;

/** The tree as JSON text, compact or indented. */
function serialize(tree: JsonTree, indent = ''): string {
  const write = (node: JsonTree, depth: number): string => {
    const inner = indent === '' ? '' : '\n' + indent.repeat(depth + 1);
    const outer = indent === '' ? '' : '\n' + indent.repeat(depth);
    if ('scalar' in node) return node.scalar;
    if ('items' in node) return node.items.length === 0 ? '[]' : `[${node.items.map((item) => inner + write(item, depth + 1)).join(',')}${outer}]`;
    if (node.members.length === 0) return '{}';
    const separator = indent === '' ? ':' : ': ';
    return `{${node.members.map(([key, value]) => inner + JSON.stringify(key) + separator + write(value, depth + 1)).join(',')}${outer}}`;
  };
  return write(tree, 0);
}

/** Every subtree, in document order, with the number of containers around it. */
function subtrees(tree: JsonTree, depth = 0, found: {tree: JsonTree; depth: number}[] = []): {tree: JsonTree; depth: number}[] {
  found.push({tree, depth});
  if ('items' in tree) for (const item of tree.items) subtrees(item, depth + 1, found);
  if ('members' in tree) for (const [, value] of tree.members) subtrees(value, depth + 1, found);
  return found;
}

/** `tree` with its `index`-th subtree (document order) replaced. */
function replaceSubtree(tree: JsonTree, index: number, replacement: (old: JsonTree) => JsonTree): JsonTree {
  let counter = 0;
  const visit = (node: JsonTree): JsonTree => {
    if (counter++ === index) return replacement(node);
    if ('items' in node) return {items: node.items.map(visit)};
    if ('members' in node) return {members: node.members.map(([key, value]): [string, JsonTree] => [key, visit(value)])};
    return node;
  };
  return visit(tree);
}

// ---------------------------------------------------------------------------------------------
// Instances aimed at a schema: random documents seldom pass a schema, and a document that passes
// but for one member is where a verdict left over from an earlier document shows. So documents
// are also built by following the schema (types, const/enum, required and listed properties,
// items, bounds), from a list of choices that fast-check shrinks, and then nudged off it.

/** Picks by a list of numbers, cycling through it (fast-check shrinks the numbers towards the first options). */
class Choices {
  private at = 0;

  constructor(private readonly values: readonly number[]) {}

  pick<T>(options: readonly T[]): T {
    return options[this.below(options.length)]!;
  }

  below(count: number): number {
    if (count <= 1) return 0;
    return this.values[this.at++ % this.values.length]! % count;
  }

  chance(percent: number): boolean {
    return this.below(100) < percent;
  }
}

const formatExamples: Record<string, string> = {
  date: '2020-01-01', 'date-time': '2020-01-01T10:00:00Z', time: '10:00:00Z', email: 'a@b.c', ipv4: '1.2.3.4', ipv6: '::1',
  uri: 'https://example.com/a', uuid: '123e4567-e89b-12d3-a456-426614174000', hostname: 'example.com', regex: '^a+$',
  'json-pointer': '/a/0', duration: 'P1D',
};
const stringCandidates = [...scalars.filter((value): value is string => typeof value === 'string'), ...Object.values(formatExamples), 'ab', 'x-12', 'abc', 'éé'];
const numberTexts = scalarTexts.filter((text) => typeof JSON.parse(text) === 'number');

/** The schema a reference made by `referenceTo` names, within the document `root`. */
function referenced(root: Fragment, reference: string): unknown {
  const definitions = (root.$defs ?? root.definitions ?? {}) as Fragment;
  const pointer = /\/d(\d)$/.exec(reference);
  if (pointer !== null) return definitions[`d${pointer[1]}`];
  if (reference === 'root#anchor0') return definitions.d0;
  if (reference === 'inner') return definitions[`d${INNER}`];
  return root;
}

class InstanceBuilder {
  constructor(
    private readonly root: Fragment,
    private readonly choices: Choices,
  ) {}

  /** The object schemas that apply in place to one instance: the schema, what it references, all of allOf, one branch of anyOf/oneOf, then or else. */
  private inPlace(schema: unknown, found: Fragment[] = [], hops = 0): Fragment[] {
    if (typeof schema !== 'object' || schema === null || hops > 8) return found;
    const fragment = schema as Fragment;
    found.push(fragment);
    for (const keyword of ['$ref', '$dynamicRef', '$recursiveRef']) {
      if (typeof fragment[keyword] === 'string') this.inPlace(referenced(this.root, fragment[keyword] as string), found, hops + 1);
    }
    for (const branch of (fragment.allOf as unknown[] | undefined) ?? []) this.inPlace(branch, found, hops + 1);
    for (const keyword of ['anyOf', 'oneOf']) {
      const branches = fragment[keyword] as unknown[] | undefined;
      if (branches !== undefined) this.inPlace(this.choices.pick(branches), found, hops + 1);
    }
    if ('if' in fragment) this.inPlace(this.choices.chance(50) ? fragment.then : fragment.else, found, hops + 1);
    return found;
  }

  build(schema: unknown, depth: number): JsonTree {
    const fragments = this.inPlace(schema);
    const constant = fragments.find((fragment) => 'const' in fragment);
    if (constant !== undefined) return treeOf(constant.const);
    const listed = fragments.find((fragment) => Array.isArray(fragment.enum));
    if (listed !== undefined) return treeOf(this.choices.pick(listed.enum as unknown[]));
    const typed = fragments.find((fragment) => fragment.type !== undefined);
    const type = typed === undefined ? this.choices.pick(depth >= 4 ? ['string', 'number', 'boolean', 'null'] : [...types, 'object', 'object']) : this.choices.pick(([] as string[]).concat(typed.type as string));
    if (type === 'object' && depth < 4) return this.object(fragments, depth);
    if (type === 'array' && depth < 4) return this.array(fragments, depth);
    if (type === 'string') return {scalar: JSON.stringify(this.string(fragments))};
    if (type === 'number' || type === 'integer') return {scalar: this.number(fragments, type === 'integer')};
    return {scalar: this.choices.pick(['null', 'true', 'false'])};
  }

  private object(fragments: Fragment[], depth: number): JsonTree {
    const wanted = new Set<string>();
    for (const fragment of fragments) for (const name of (fragment.required as string[] | undefined) ?? []) wanted.add(name);
    for (const fragment of fragments) for (const name of Object.keys((fragment.properties as Fragment | undefined) ?? {})) if (this.choices.chance(50)) wanted.add(name);
    const least = Math.max(0, ...fragments.map((fragment) => (fragment.minProperties as number | undefined) ?? 0));
    while (wanted.size < least) wanted.add(this.choices.pick(names));
    for (const fragment of fragments) {
      for (const [name, others] of Object.entries((fragment.dependentRequired ?? {}) as Record<string, string[]>)) if (wanted.has(name)) for (const other of others) wanted.add(other);
    }
    return {members: [...wanted].map((name): [string, JsonTree] => [name, this.build(this.memberSchema(fragments, name), depth + 1)])};
  }

  private memberSchema(fragments: Fragment[], name: string): unknown {
    for (const fragment of fragments) {
      const properties = fragment.properties as Fragment | undefined;
      if (properties !== undefined && name in properties) return properties[name];
    }
    for (const fragment of fragments) {
      for (const [pattern, subschema] of Object.entries((fragment.patternProperties ?? {}) as Fragment)) if (new RegExp(pattern, 'u').test(name)) return subschema;
    }
    return fragments.find((fragment) => 'additionalProperties' in fragment)?.additionalProperties ?? true;
  }

  private array(fragments: Fragment[], depth: number): JsonTree {
    const items: JsonTree[] = [];
    const prefix = fragments.find((fragment) => Array.isArray(fragment.prefixItems) || Array.isArray(fragment.items));
    const prefixSchemas = (prefix === undefined ? [] : Array.isArray(prefix.prefixItems) ? prefix.prefixItems : prefix.items) as unknown[];
    for (const subschema of prefixSchemas) if (this.choices.chance(80)) items.push(this.build(subschema, depth + 1));
    const rest = fragments.find((fragment) => (fragment.items !== undefined && !Array.isArray(fragment.items)) || fragment.additionalItems !== undefined);
    const restSchema = rest === undefined ? true : Array.isArray(rest.items) ? rest.additionalItems : rest.items;
    const least = Math.max(0, ...fragments.map((fragment) => (fragment.minItems as number | undefined) ?? 0));
    const count = Math.max(least - items.length, this.choices.below(3));
    for (let index = 0; index < count; index++) items.push(this.build(restSchema, depth + 1));
    const contains = fragments.find((fragment) => 'contains' in fragment);
    if (contains !== undefined) items.push(this.build(contains.contains, depth + 1));
    return {items};
  }

  private string(fragments: Fragment[]): string {
    const format = fragments.find((fragment) => typeof fragment.format === 'string');
    if (format !== undefined && this.choices.chance(80)) return formatExamples[format.format as string] ?? 'a';
    const fits = stringCandidates.filter((candidate) =>
      fragments.every((fragment) => {
        const length = [...candidate].length;
        if (typeof fragment.pattern === 'string' && !new RegExp(fragment.pattern, 'u').test(candidate)) return false;
        return length >= ((fragment.minLength as number | undefined) ?? 0) && length <= ((fragment.maxLength as number | undefined) ?? Infinity);
      }),
    );
    return this.choices.pick(fits.length > 0 ? fits : stringCandidates);
  }

  private number(fragments: Fragment[], integer: boolean): string {
    const fits = numberTexts.filter((text) => {
      const value = Number(text);
      if (integer && !Number.isInteger(value)) return false;
      return fragments.every((fragment) => {
        const {minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf} = fragment as Record<string, number | undefined>;
        if (minimum !== undefined && value < minimum) return false;
        if (maximum !== undefined && value > maximum) return false;
        if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) return false;
        if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) return false;
        return multipleOf === undefined || Number.isInteger(value / multipleOf);
      });
    });
    return this.choices.pick(fits.length > 0 ? fits : numberTexts);
  }
}

/** A parsed JSON value as a tree. */
function treeOf(value: unknown): JsonTree {
  if (Array.isArray(value)) return {items: value.map(treeOf)};
  if (typeof value === 'object' && value !== null) return {members: Object.entries(value).map(([key, member]): [string, JsonTree] => [key, treeOf(member)])};
  return {scalar: JSON.stringify(value)};
}

/** Off the schema by one step: a member's value changed, a member dropped, or one added. */
function nudge(tree: JsonTree, at: number, how: number): JsonTree {
  // A member rather than the whole document, when there is one: the rest of it still passes.
  const count = subtrees(tree).length;
  return replaceSubtree(tree, count === 1 ? 0 : 1 + (at % (count - 1)), (node) => {
    if ('members' in node && how % 3 === 1 && node.members.length > 0) return {members: node.members.filter((_, index) => index !== how % node.members.length)};
    if ('members' in node && how % 3 === 2) return {members: [...node.members, [names[how % names.length]!, {scalar: scalarTexts[how % scalarTexts.length]!}]]};
    return {scalar: scalarTexts[how % scalarTexts.length]!};
  });
}

/** Instances aimed at `schema`. */
export function aimedTreeArbitrary(schema: Fragment): fc.Arbitrary<JsonTree> {
  return fc.array(fc.nat({max: 9999}), {minLength: 8, maxLength: 32}).map((values) => new InstanceBuilder(schema, new Choices(values)).build(schema, 0));
}

/**
 * A schema case with its family: one or two instances of its schema, which the documents of one
 * sequence are mostly variants of (a broken document and a near miss of the same shape).
 */
export function familyCases(cases: fc.Arbitrary<SchemaCase> = schemaCaseArbitrary): fc.Arbitrary<{schemaCase: SchemaCase; family: JsonTree[]}> {
  return cases.chain((schemaCase) => fc.record({schemaCase: fc.constant(schemaCase), family: fc.array(aimedTreeArbitrary(schemaCase.schema), {minLength: 1, maxLength: 2})}));
}

/**
 * Trees for documents of `schema`: schema-agnostic JSON, instances aimed at the schema, and those
 * nudged off it; with a `family`, mostly its members and their nudges, so that the documents of a
 * sequence share their structure (a broken document and a near miss of the same shape).
 */
export function treeArbitrary(schema: Fragment, family: readonly JsonTree[] = []): fc.Arbitrary<JsonTree> {
  const aimed = aimedTreeArbitrary(schema);
  const nudged = (trees: fc.Arbitrary<JsonTree>): fc.Arbitrary<JsonTree> => fc.tuple(trees, positionArbitrary, fc.nat()).map(([tree, at, how]) => nudge(tree, at, how));
  if (family.length === 0) return fc.oneof({weight: 2, arbitrary: jsonTreeArbitrary}, {weight: 3, arbitrary: aimed}, {weight: 3, arbitrary: nudged(aimed)});
  const relative = fc.constantFrom(...family);
  return fc.oneof({weight: 1, arbitrary: jsonTreeArbitrary}, {weight: 2, arbitrary: aimed}, {weight: 2, arbitrary: nudged(aimed)}, {weight: 6, arbitrary: relative}, {weight: 6, arbitrary: nudged(relative)});
}

/** What was done to a document; `shortened` is one a failure's minimization cut down. */
type DocumentKind = 'json' | 'truncated' | 'corrupted' | 'repeated key' | 'trailing content' | 'past a limit' | 'invalid UTF-8' | 'shortened';

const encoder = new TextEncoder();

/** One document as bytes, with what was done to it; prints readably in a counterexample. */
export class Document {
  constructor(
    readonly kind: DocumentKind,
    readonly bytes: Uint8Array,
  ) {}

  /** The bytes decoded as a session decodes them (malformed sequences become U+FFFD). */
  get text(): string {
    return Buffer.from(this.bytes).toString('utf8');
  }

  [fc.toStringMethod](): string {
    return `${this.kind} ${describeBytes(this.bytes)}`;
  }
}

/** Printable bytes: ASCII as it is, anything else as \xNN. */
export function describeBytes(bytes: Uint8Array): string {
  let shown = '';
  for (const byte of bytes) shown += byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
  return `'${shown.length > 300 ? shown.slice(0, 300) + `… (${bytes.length} bytes)` : shown}'`;
}

const concatBytes = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

/**
 * Past this depth, a document costs too much against some generated schemas: one that applies
 * itself twice to an item (`items` and an `if` with `prefixItems`, both referring to the root)
 * doubles the work at each level, as it would in any validator.
 */
const AFFORDABLE_DEPTH = 64;

/** A subtree that crosses one of the limits (only those a few kilobytes cross, with the defaults). */
function pastLimit(limits: Required<Limits>): fc.Arbitrary<JsonTree> {
  const options: fc.Arbitrary<JsonTree>[] = [fc.constantFrom('1', '1.', '-0.', '1e').map((start) => ({scalar: start + '5'.repeat(limits.maxNumberLength)}))];
  if (limits.maxDepth < AFFORDABLE_DEPTH) options.push(fc.boolean().map((arrays) => nest(limits.maxDepth + 1, arrays)));
  if (limits.maxStringLength < 5000) options.push(fc.constantFrom('x', 'é', '😀').map((unit) => ({scalar: JSON.stringify(unit.repeat(limits.maxStringLength + 1))})));
  if (limits.maxKeyLength < 5000) options.push(fc.constant({members: [['k'.repeat(limits.maxKeyLength + 1), {scalar: '1'}]]}));
  if (limits.maxProperties < 5000) options.push(fc.constant({members: Array.from({length: limits.maxProperties + 1}, (_, index): [string, JsonTree] => [`k${index}`, {scalar: '0'}])}));
  return fc.oneof(...options);
}

function nest(levels: number, arrays: boolean): JsonTree {
  let tree: JsonTree = {scalar: '1'};
  for (let level = 0; level < levels; level++) tree = arrays ? {items: [tree]} : {members: [['a', tree]]};
  return tree;
}

/** Byte sequences that are not UTF-8: lone continuations, overlong forms, surrogates, past U+10FFFF, cut characters, F8-FF. */
const invalidSequences = [[0x80], [0xbf], [0xc0, 0xaf], [0xc1], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f, 0x98], [0xf8], [0xfb, 0xbf], [0xfe], [0xff]];
/** Bytes that make or break JSON structure, for corruption. */
const structuralBytes = [...'{}[],:"\\ \n0-.eEtfnu'].map((character) => character.charCodeAt(0));
const trailers = [' x', '}', ']', ',', ',1', ' {}', '{"a":1}', '\n{"b":2}', ' "', '\u0000', ' null', 'e5', '\n\n[1'];

/**
 * A document for a validator compiled with `limits`: most are well-formed JSON (valid or not for
 * the schema), the rest hostile: cut at any byte, a byte changed, inserted or deleted, a key
 * repeated, content after the end, a limit crossed, bytes that are not UTF-8 (also as the last bytes).
 */
export function documentArbitrary({schema, limits}: SchemaCase, family: readonly JsonTree[] = []): fc.Arbitrary<Document> {
  const tree = treeArbitrary(schema, family);
  const text = fc.tuple(tree, fc.constantFrom('', '', ' ', '\t')).map(([json, indent]) => encoder.encode(serialize(json, indent)));
  const position = positionArbitrary;
  // Mostly inside a member of the document: what broke there is what the next document must not inherit.
  const nestedBias = fc.constantFrom(true, true, false);
  return fc.oneof(
    {weight: 6, arbitrary: text.map((bytes) => new Document('json', bytes))},
    {weight: 5, arbitrary: fc.tuple(text, position, nestedBias).map(([bytes, at, nested]) => new Document('truncated', bytes.subarray(0, cutAt(bytes, at, nested))))},
    {
      weight: 2,
      arbitrary: fc
        .tuple(text, position, nestedBias, fc.oneof(fc.constantFrom(...structuralBytes), fc.integer({min: 0, max: 255})), fc.constantFrom('replace', 'insert', 'delete'))
        .map(([bytes, at, nested, byte, how]) => {
          const index = cutAt(bytes, at, nested);
          const before = bytes.subarray(0, index);
          const after = bytes.subarray(how === 'insert' ? index : index + 1);
          return new Document('corrupted', concatBytes(before, how === 'delete' ? new Uint8Array() : Uint8Array.of(byte), after));
        }),
    },
    {weight: 2, arbitrary: fc.tuple(tree, position, position, fc.boolean()).map(([json, which, member, sameValue]) => new Document('repeated key', encoder.encode(serialize(repeatKey(json, which, member, sameValue)))))},
    {weight: 1, arbitrary: fc.tuple(text, fc.constantFrom(...trailers)).map(([bytes, trailer]) => new Document('trailing content', concatBytes(bytes, encoder.encode(trailer))))},
    {
      weight: 2,
      arbitrary: fc
        .tuple(tree, position, pastLimit(limits))
        .map(([json, at, crossing]) => new Document('past a limit', encoder.encode(serialize(replaceSubtree(json, at % subtrees(json).length, () => crossing))))),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(text, position, fc.constantFrom(...invalidSequences), fc.boolean()).map(([bytes, at, sequence, last]) => {
        // Inside a string when there is one (right after a quote), else anywhere; `last` cuts the document after it.
        const quotes = [...bytes.keys()].filter((index) => bytes[index] === 0x22);
        const index = quotes.length > 0 ? quotes[at % quotes.length]! + 1 : at % (bytes.length + 1);
        const inserted = concatBytes(bytes.subarray(0, index), Uint8Array.from(sequence), last ? new Uint8Array() : bytes.subarray(index));
        return new Document('invalid UTF-8', inserted);
      }),
    },
  );
}

/** Where to cut `bytes`: anywhere, or (`nested`) right after a byte that opens or continues a member inside a container within the document. */
function cutAt(bytes: Uint8Array, at: number, nested: boolean): number {
  if (!nested) return at % Math.max(1, bytes.length);
  const inside: number[] = [];
  let depth = 0;
  bytes.forEach((byte, index) => {
    if (byte === 0x7b || byte === 0x5b) depth++;
    if (byte === 0x7d || byte === 0x5d) depth--;
    if (depth >= 2 && (byte === 0x7b || byte === 0x5b || byte === 0x2c || byte === 0x3a)) inside.push(index + 1);
  });
  return inside.length === 0 ? at % Math.max(1, bytes.length) : inside[at % inside.length]!;
}

/** `tree` with one member of one of its objects written twice (the second time with the same or another value). */
function repeatKey(tree: JsonTree, which: number, member: number, sameValue: boolean): JsonTree {
  const objects = subtrees(tree)
    .map(({tree: node}, index) => ({node, index}))
    .filter(({node}) => 'members' in node && node.members.length > 0);
  if (objects.length === 0) return {members: [['a', tree], ['a', sameValue ? tree : {scalar: 'null'}]]};
  const chosen = objects[which % objects.length]!;
  return replaceSubtree(tree, chosen.index, (node) => {
    const members = (node as {members: [string, JsonTree][]}).members;
    const [key, value] = members[member % members.length]!;
    return {members: [...members, [key, sameValue ? value : {scalar: '"again"'}]]};
  });
}

// ---------------------------------------------------------------------------------------------
// Values for value mode (validate)

/** A value that a caller's code may hand to validate(): parsed JSON, or one no JSON text gives. */
export class HostileValue {
  constructor(
    readonly kind: string,
    readonly make: () => unknown,
  ) {}

  [fc.toStringMethod](): string {
    return `${this.kind}`;
  }
}

/**
 * Values: JSON.parse of generated documents (past a limit too), and values no JSON text gives:
 * NaN, Infinity, a function, a bigint, undefined, a cycle, a getter that throws, deep inside.
 */
export function valueArbitrary({schema, limits}: SchemaCase, family: readonly JsonTree[] = []): fc.Arbitrary<HostileValue> {
  const tree = treeArbitrary(schema, family);
  const parsed = (tree: JsonTree, kind: string): HostileValue => {
    const text = serialize(tree);
    return new HostileValue(`${kind} ${text.length > 200 ? text.slice(0, 200) + '…' : text}`, () => JSON.parse(text));
  };
  const strange: [string, () => unknown][] = [
    ['NaN', () => Number.NaN],
    ['Infinity', () => Number.POSITIVE_INFINITY],
    ['a function', () => () => 1],
    ['a bigint', () => 10n],
    ['undefined', () => undefined],
    ['a symbol', () => Symbol('s')],
    ['a cycle', () => {
      const cycle: Record<string, unknown> = {a: 1};
      cycle.data = cycle;
      return cycle;
    }],
    ['a getter that throws', () => Object.defineProperty({a: 1}, 'name', {enumerable: true, get: () => {
      throw new Error('the getter of name failed');
    }})],
  ];
  // A cycle is walked down to maxDepth.
  const affordable = strange.filter(([kind]) => kind !== 'a cycle' || limits.maxDepth < AFFORDABLE_DEPTH);
  return fc.oneof(
    {weight: 6, arbitrary: tree.map((json) => parsed(json, 'json'))},
    {weight: 2, arbitrary: fc.tuple(tree, positionArbitrary, pastLimit(limits)).map(([json, at, crossing]) => parsed(replaceSubtree(json, at % subtrees(json).length, () => crossing), 'past a limit'))},
    {
      weight: 2,
      arbitrary: fc.tuple(tree, positionArbitrary, fc.constantFrom(...affordable)).map(([json, at, [kind, make]]) => {
        // Deep inside a parsed document, so that the walk stops in the middle of it.
        const text = serialize(json);
        const path = pathTo(JSON.parse(text), at);
        return new HostileValue(`${kind} at ${JSON.stringify(path)} of ${text}`, () => placeAt(JSON.parse(text), path, make()));
      }),
    },
  );
}

/** The keys to the `at`-th container of `value` (document order; the root when there is none). */
function pathTo(value: unknown, at: number): (string | number)[] {
  const paths: (string | number)[][] = [];
  const visit = (node: unknown, path: (string | number)[]): void => {
    if (typeof node !== 'object' || node === null) return;
    paths.push(path);
    for (const [key, child] of Object.entries(node)) visit(child, [...path, Array.isArray(node) ? Number(key) : key]);
  };
  visit(value, []);
  return paths.length === 0 ? [] : paths[at % paths.length]!;
}

/** `value` with `hostile` set as a member of the container at `path` (or instead of `value`). */
function placeAt(value: unknown, path: (string | number)[], hostile: unknown): unknown {
  if (typeof value !== 'object' || value === null) return hostile;
  let container = value as Record<string | number, unknown>;
  for (const key of path) container = container[key] as Record<string | number, unknown>;
  if (Array.isArray(container)) container.push(hostile);
  else container.data = hostile;
  return value;
}

// ---------------------------------------------------------------------------------------------
// Chunking

/** Where a session's input is cut: at given places, every so many bytes, after every byte that is not ASCII, or into single bytes. */
export interface Chunking {
  cuts: number[];
  /** Also cut every this many bytes (0: not). */
  every: number;
  afterHighBytes: boolean;
  singleBytes: boolean;
  /** Written as strings (each chunk decoded on its own) rather than bytes. */
  strings: boolean;
}

export const chunkingArbitrary: fc.Arbitrary<Chunking> = fc.record({
  cuts: fc.array(positionArbitrary, {maxLength: 6}),
  every: fc.constantFrom(0, 0, 0, 5, 16, 64),
  afterHighBytes: fc.boolean(),
  singleBytes: fc.boolean(),
  strings: fc.constantFrom(false, false, false, true),
});

/** The document's bytes cut as `chunking` says; single bytes only for short documents. */
export function chunk(bytes: Uint8Array, chunking: Chunking): (Uint8Array | string)[] {
  const cuts = new Set<number>();
  if (chunking.singleBytes && bytes.length <= 64) for (let index = 1; index < bytes.length; index++) cuts.add(index);
  for (const cut of chunking.cuts) cuts.add(cut % (bytes.length + 1));
  if (chunking.every > 0) for (let cut = chunking.every; cut < bytes.length; cut += chunking.every) cuts.add(cut);
  if (chunking.afterHighBytes) bytes.forEach((byte, index) => byte >= 0x80 && cuts.add(index + 1));
  const ends = [...cuts].filter((cut) => cut > 0 && cut < bytes.length).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const end of [...ends, bytes.length]) {
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunking.strings ? chunks.map((piece) => Buffer.from(piece).toString('utf8')) : chunks;
}
