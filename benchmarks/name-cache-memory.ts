// What one kept property name costs in each cache of names (src/engine/nameCache.ts), beside its
// characters: the figures behind PLAN_BYTES (src/engine/keyPlan.ts) and MEMBER_BYTES
// (src/engine/checker.ts), which must not be below them for the budget to bound the heap.
//
//   npm run build && node --expose-gc --import tsx benchmarks/name-cache-memory.ts
//
// Valid documents of one unique name each, 800 of them (within both caches' bounds): through
// validateText, only the checker reads them (its members); through a session of a small
// document, only the evaluator (its key plans). The heap after a full GC, per name, less the
// name's own characters.

import {compile, type Validator} from '../dist/src/index.js';

const gc = (globalThis as {gc?: () => void}).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const NAMES = 800;
const NAME_LENGTH = 31;

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

const schema = {type: 'object', properties: {name: {type: 'string'}}, additionalProperties: {type: 'number'}};
const documentOf = (i: number): string => `{"${`name ${i} `.padEnd(NAME_LENGTH, 'n')}": ${i}}`;

function bytesPerName(judge: (validator: Validator, text: string) => boolean): number {
  const validator = compile(schema);
  for (let i = 0; i < 10; i++) judge(validator, '{"name": "x"}');
  const before = heap();
  for (let i = 0; i < NAMES; i++) if (!judge(validator, documentOf(i))) throw new Error(`document ${i} failed`);
  return (heap() - before) / NAMES - NAME_LENGTH;
}

const member = bytesPerName((validator, text) => validator.validateText(text).valid);
const plan = bytesPerName((validator, text) => {
  const session = validator.session();
  session.write(text);
  return session.end().valid;
});
console.log(`bytes a kept name costs beside its ${NAME_LENGTH} characters (${NAMES} names):`);
console.log(`  the checker's members (MEMBER_BYTES)  ${member.toFixed(0)}`);
console.log(`  the evaluator's key plans (PLAN_BYTES) ${plan.toFixed(0)}`);
