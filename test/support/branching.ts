// Schemas where two subschemas reach the same recursive one, and documents that keep both open at
// each of their levels (Limits.maxApplications; docs/decisions.md, "A bound on the subschemas
// applied to one document"): for the tests, the shared hostile suite and benchmarks/branching.ts.

import {byteChunks, feed} from './chunks.js';
import type {Result, Validator} from '../../src/types.js';

/**
 * A node that is one of `kinds`, told apart by the member `tag`, its children under `list`: the
 * tree of the decision record, and rich text.
 */
export function taggedTree(tag: string, list: string, kinds: readonly string[], more: {properties?: object; additionalProperties?: false} = {}): object {
  const kind = (name: string) => ({type: 'object', required: [tag], properties: {[tag]: {const: name}, [list]: {type: 'array', items: {$ref: '#/$defs/node'}}, ...more.properties}, ...(more.additionalProperties === false ? {additionalProperties: false} : {})});
  return {$defs: {node: {oneOf: kinds.map(kind)}}, $ref: '#/$defs/node'};
}

/** The tree of two kinds, `group` and `list`. */
export const branchingTree = taggedTree('kind', 'children', ['group', 'list']);

/** A tree `depth` levels deep whose `kind` comes after its `children`: both kinds stay open at every level. */
export function treeWithKindLast(depth: number): string {
  let text = '{"kind":"group"}';
  for (let level = 0; level < depth; level++) text = `{"children":[${text}],"kind":"group"}`;
  return text;
}

/** Lists of lists under two `anyOf` branches that both recurse. */
export const branchingLists = {anyOf: [{type: 'array', items: {$ref: '#'}}, {type: 'array', items: {$ref: '#'}, maxItems: 5}]};

/** Lists `depth` deep around a string, which fails both branches at the bottom. */
export const nestedLists = (depth: number): string => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;

const bytesOf = (text: string) => new TextEncoder().encode(text);

/** Every way in: a parsed value, a whole text, bytes with the value, and a session whole or a byte at a time. */
export const judges: Readonly<Record<string, (validator: Validator, text: string) => Result>> = {
  validate: (validator, text) => validator.validate(JSON.parse(text)),
  validateText: (validator, text) => validator.validateText(text),
  parseText: (validator, text) => validator.parseText(bytesOf(text)),
  'a session, whole': (validator, text) => feed(validator, [text]),
  'a session, a byte at a time': (validator, text) => feed(validator, byteChunks(bytesOf(text))),
};
