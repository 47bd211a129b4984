// `allOf` (2020-12 core §10.2.1.1): every subschema applies at this location; the first to fail
// fails the keyword, at once.

import type {KeywordDefinition, SchemaNode, Run} from '../schema/node.js';
import {expectSchemaArray} from './expect.js';

export interface Branches {
  readonly nodes: readonly SchemaNode[];
  readonly paths: readonly string[];
}

/** The subschemas of `allOf`/`anyOf`/`oneOf`, compiled with their keyword-location paths. */
export function compileBranches(value: unknown, context: Parameters<KeywordDefinition['compile']>[1], name: string): Branches {
  expectSchemaArray(value, context);
  return {
    nodes: value.map((schema, index) => context.subschema(schema, '/' + index)),
    paths: value.map((_, index) => `/${name}/${index}`),
  };
}

export const allOf: KeywordDefinition<Branches> = {
  name: 'allOf',
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  subschemas: 'schemaArray',
  compile: (value, context) => compileBranches(value, context, 'allOf'),
  outline(keyword, outline) {
    for (const node of keyword.value.nodes) outline.all(node);
  },
  begin(run, keyword) {
    const {nodes, paths} = keyword.value;
    for (let i = 0; i < nodes.length; i++) {
      run.applyInPlace(nodes[i], keyword, i, paths[i]);
      if (run.settled) return;
    }
  },
  result: requireSubschema,
};

/**
 * For member applicators (properties, items...): a failed member fails the keyword. A passing
 * member changes nothing here; its annotations belong to its own location, not to this one.
 */
export function requireMember(run: Run, _keyword: unknown, child: Run): void {
  if (child.failed) run.failWith(child);
}

/** For applicators whose subschema must pass at this location: its errors or its annotations become ours. */
export function requireSubschema(run: Run, _keyword: unknown, child: Run): void {
  if (child.failed) run.failWith(child);
  else run.mergeAnnotations(child);
}
