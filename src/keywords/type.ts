// `type` (2020-12 validation §6.1.1): the instance's JSON type must be one of those listed.
// `integer` is a number whose value is whole, decided on the literal text (1.0, 1e2, 2^64).

import {ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING, type Kind, type KeywordDefinition} from '../schema/node.js';

const typeBits: Readonly<Record<string, number>> = {
  object: OBJECT,
  array: ARRAY,
  string: STRING,
  number: NUMBER,
  integer: INTEGER,
  boolean: BOOLEAN,
  null: NULL,
};

interface TypeValue {
  readonly mask: number;
  readonly message: string;
  /** The keyword's value as written (a name or an array of names): ajv's `params.type`. */
  readonly expected: string | readonly string[];
}

export const type: KeywordDefinition<TypeValue> = {
  name: 'type',
  compile(value, context) {
    const names = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && value.length === 0 && context.draft.name === 'draft4') throw context.fail('must not be an empty array');
    let mask = 0;
    const seen = new Set<string>();
    names.forEach((name, index) => {
      const at = Array.isArray(value) ? '/' + index : '';
      if (typeof name !== 'string' || typeBits[name] === undefined) {
        context.fail(`unknown type ${JSON.stringify(name)} (expected one of ${Object.keys(typeBits).join(', ')})`, at);
      }
      if (seen.has(name)) throw context.fail(`type "${name}" is listed twice`, at);
      seen.add(name);
      mask |= typeBits[name];
    });
    return {mask, message: `must be ${names.join(' or ')}`, expected: value as string | readonly string[]};
  },
  accepts(keyword, kind, scalar) {
    const mask = keyword.value.mask;
    if ((mask & kind) !== 0) return true;
    return kind === NUMBER && (mask & INTEGER) !== 0 && scalar.isInteger();
  },
  outline: (keyword, outline) => outline.kinds(keyword.value.mask),
  begin(run, keyword) {
    // Containers are judged as they open; scalars in `scalar`, once their value is known.
    const kind = run.kind;
    if ((kind === OBJECT || kind === ARRAY) && !type.accepts!(keyword, kind, run.evaluator)) run.fail(keyword, keyword.value.message, {type: keyword.value.expected});
  },
  scalar(run, keyword) {
    if (type.accepts!(keyword, run.kind as Kind, run.evaluator)) return;
    run.fail(keyword, keyword.value.message, {type: keyword.value.expected});
  },
};
