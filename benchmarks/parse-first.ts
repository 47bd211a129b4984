// What a valid body costs a door that hands its value on (issue 24 point 2: server CPU per request
// at least `express.json()` + ajv's). The handler wants the value, so `JSON.parse` runs on either
// side, and the question is what validating costs beside it. On http-cpu.ts's 1 KB order body,
// each against `JSON.parse` + ajv in the same run:
//
// 1. text first, as our doors do (Validator.parseText): the text checker's pass, then JSON.parse;
// 2. the same pass with the schema `{}`: what reading the text costs with no keyword at all;
// 3. parse first: JSON.parse, value mode on the value, and what the text must still be asked,
//    since the value has lost it: no key repeated (RFC 7493 §2.3, which the engine refuses) and no
//    number JSON.parse rounds (validateText judges the decimal as written; a door that hands the
//    value on judges its double, so it needs no such witness any more, but the row keeps it, as
//    measured). The cheapest witnesses
//    we know: no backslash in the text; its colons against the value's members and the colons in
//    its names and strings (equal only if no key is repeated, when nothing is escaped); no run of
//    16 digits and no exponent. Measured, not built: they do not cover all the text shows (a lone
//    surrogate, for one), and a door that trusted them would fail open where they miss;
// 4. parse first with no witness: what a door that let those pass as JSON.parse does would cost.
//
// Run: `npm run bench -- parse-first`, or `npm run build && node --import tsx benchmarks/parse-first.ts`.

import {Ajv} from 'ajv';
import {compile} from '../dist/src/index.js';
import {bestAlternating, orderSchema, printTable, smallBody, type Row} from './support.js';

const BODIES = 2000;
const body = smallBody().toString();
// Each body its own string, as each request's is.
const texts = Array.from({length: BODIES}, () => Buffer.from(body).toString());
const bytes = BODIES * Buffer.byteLength(body);

const ours = compile(orderSchema);
const any = compile({});
const ajv = new Ajv().compile(orderSchema);
if (!ours.parseText(body).valid || !ajv(JSON.parse(body))) throw new Error('the order body should be valid');

/** The colons in `text`. */
function colons(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at >= 0; at = text.indexOf(':', at + 1)) count++;
  return count;
}
/** The members of `value` and the colons in its names and strings: the text's colons, if no key is repeated and none is escaped. */
function membersAndColons(value: unknown): number {
  if (typeof value === 'string') return colons(value);
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += membersAndColons(item);
    return count;
  }
  for (const name of Object.keys(value)) count += 1 + colons(name) + membersAndColons((value as Record<string, unknown>)[name]);
  return count;
}
const LONG_NUMBER = /[0-9.]{16}|[0-9][eE]/;

const theirs = (): number => {
  let valid = 0;
  for (const text of texts) if (ajv(JSON.parse(text))) valid++;
  return valid;
};
const sides: [string, () => number][] = [
  [
    'text first: parseText (the pass, then JSON.parse)',
    () => {
      let valid = 0;
      for (const text of texts) if (ours.parseText(text).valid) valid++;
      return valid;
    },
  ],
  [
    'text first with the schema {}: the pass, then JSON.parse',
    () => {
      let valid = 0;
      for (const text of texts) if (any.parseText(text).valid) valid++;
      return valid;
    },
  ],
  [
    'parse first: JSON.parse, value mode, the witnesses',
    () => {
      let valid = 0;
      for (const text of texts) {
        const value: unknown = JSON.parse(text);
        const witnessed = text.indexOf('\\') < 0 && colons(text) === membersAndColons(value) && !LONG_NUMBER.test(text);
        if (witnessed && ours.validate(value).valid) valid++;
      }
      return valid;
    },
  ],
  [
    'parse first, no witnesses: JSON.parse, value mode (a repeated key passes)',
    () => {
      let valid = 0;
      for (const text of texts) if (ours.validate(JSON.parse(text)).valid) valid++;
      return valid;
    },
  ],
];

const rows: Row[] = sides.map(([name, work]) => ({name, ...bestAlternating(work, theirs, 15), bytes}));
printTable(`A valid 1 KB order whose value is handed on, ${BODIES} bodies, vs JSON.parse + ajv`, rows);
