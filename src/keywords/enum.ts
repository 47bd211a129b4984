// `enum` and `const` (2020-12 validation §6.1.2-3): the instance equals one of the literals.
// Scalars are checked at once. An object or array instance is matched incrementally against the
// literals of its kind, each compiled into a node (src/keywords/rules/literal.ts) that runs in place: memory is
// bounded by the literals, not by the document, and a mismatch fails at the first differing token.

import {SchemaError} from '../output/errors.js';
import {kindOf, nonJsonLocation, scalarEquals} from './rules/literal.js';
import {ARRAY, NUMBER, OBJECT, STRING, type CompiledKeyword, type Kind, type KeywordContext, type KeywordDefinition, type Outline, type SchemaNode, type Scalar, type Run} from '../schema/node.js';

interface Literals {
  /** `true`, `false` and `null` literals. */
  readonly scalars: readonly unknown[];
  readonly strings: ReadonlySet<string>;
  /** Number literals by their double: a lookup instead of a scan, whatever the enum's length. */
  readonly numbers: ReadonlySet<number>;
  readonly objects: readonly SchemaNode[];
  readonly arrays: readonly SchemaNode[];
  readonly message: string;
}

class Matching {
  open = 0;
  matched = false;
}

const newMatching = (): Matching => new Matching();

/**
 * Most objects and arrays one `enum` may list. Each is a literal node (src/keywords/rules/literal.ts) that runs in
 * place on every object or array instance, so a value's cost grows with their number (~3.5 µs
 * each), and each costs nodes at compile: a million took 35 s and 4 GB to compile, then seconds
 * per value. Strings and numbers are looked up in sets and have no such bound.
 */
export const MAX_CONTAINER_LITERALS = 1000;

function countContainers(values: readonly unknown[]): number {
  let count = 0;
  for (const value of values) if (typeof value === 'object' && value !== null) count++;
  return count;
}

function compileLiterals(values: readonly unknown[], context: KeywordContext, message: string, pathOf: (index: number) => string): Literals {
  const containers = countContainers(values);
  if (containers > MAX_CONTAINER_LITERALS) {
    throw new SchemaError('schema.enum.tooLarge', context.location, `"enum": ${containers} objects and arrays, more than the ${MAX_CONTAINER_LITERALS} allowed`);
  }
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
  return {scalars, strings, numbers, objects, arrays, message};
}

function beginMatching(run: Run, keyword: CompiledKeyword<Literals>): void {
  const kind = run.kind;
  if (kind !== OBJECT && kind !== ARRAY) return;
  const candidates = kind === OBJECT ? keyword.value.objects : keyword.value.arrays;
  if (candidates.length === 0) {
    run.fail(keyword, keyword.value.message);
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
 * literals (each literal node outlines itself, src/keywords/rules/literal.ts); scalars go to `accepts`.
 */
function outlineLiterals(keyword: CompiledKeyword<Literals>, outline: Outline): void {
  const {objects, arrays} = keyword.value;
  outline.kinds((objects.length > 0 ? OBJECT : 0) | (arrays.length > 0 ? ARRAY : 0));
  if (objects.length + arrays.length > 0) outline.some([...objects, ...arrays], false);
}

function scalarMatches(run: Run, keyword: CompiledKeyword<Literals>): void {
  if (!acceptsScalar(keyword, run.kind as Kind, run.evaluator)) run.fail(keyword, keyword.value.message);
}

function candidateSettled(run: Run, keyword: CompiledKeyword<Literals>, child: Run): void {
  const matching = run.state(keyword, newMatching);
  matching.open--;
  if (!child.failed) matching.matched = true;
  else if (matching.open === 0 && !matching.matched) run.fail(keyword, keyword.value.message);
}

export const enumKeyword: KeywordDefinition<Literals> = {
  name: 'enum',
  discardsErrors: () => true,
  compile(value, context) {
    if (!Array.isArray(value)) throw context.fail('must be an array');
    if (value.length === 0 && (context.draft.name === 'draft4' || context.draft.name === 'draft6')) throw context.fail('must have at least one element');
    return compileLiterals(value, context, 'must be equal to one of the allowed values', (index) => '/' + index);
  },
  begin: beginMatching,
  accepts: acceptsScalar,
  outline: outlineLiterals,
  scalar: scalarMatches,
  result: candidateSettled,
};

export const constKeyword: KeywordDefinition<Literals> = {
  name: 'const',
  discardsErrors: () => true,
  compile: (value, context) => compileLiterals([value], context, 'must be equal to the constant', () => ''),
  begin: beginMatching,
  accepts: acceptsScalar,
  outline: outlineLiterals,
  scalar: scalarMatches,
  result: candidateSettled,
};
