// Keywords with no effect on the verdict: identifiers, anchors and the holders of reusable
// subschemas (`$defs`, `definitions`), whose values still have a shape to check (a broken
// subschema is reported even when nothing refers to it yet); and the annotation keywords of the
// meta-data and content vocabularies (2020-12 validation §8-9), whose value is their annotation.

import type {KeywordDefinition} from '../schema/node.js';
import {expectSchema, expectSchemaMap, isSchema} from './rules/expect.js';
import {escapePointerToken} from '../json/pointer.js';

function stringKeyword(name: string, check?: (value: string) => string | undefined): KeywordDefinition<never> {
  return {
    name,
    compile(value, context) {
      if (typeof value !== 'string') throw context.fail('must be a string');
      const problem = check?.(value);
      if (problem !== undefined) throw context.fail(problem);
      return undefined;
    },
  };
}

const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

export const id = stringKeyword('$id');
export const draft4Id = stringKeyword('id');
export const schemaKeyword = stringKeyword('$schema');
export const comment = stringKeyword('$comment');
export const anchor = stringKeyword('$anchor', (value) => (ANCHOR.test(value) ? undefined : `"${value}" is not a valid anchor name`));
export const dynamicAnchor = stringKeyword('$dynamicAnchor', (value) => (ANCHOR.test(value) ? undefined : `"${value}" is not a valid anchor name`));

export const recursiveAnchor: KeywordDefinition<never> = {
  name: '$recursiveAnchor',
  compile(value, context) {
    if (typeof value !== 'boolean') throw context.fail('must be a boolean');
    return undefined;
  },
};

function definitionsKeyword(name: string): KeywordDefinition<never> {
  return {
    name,
    subschemas: 'schemaMap',
    compile(value, context) {
      expectSchemaMap(value, context);
      for (const [key, schema] of Object.entries(value)) {
        const path = '/' + escapePointerToken(key);
        if (!isSchema(schema)) throw context.fail('must be an object whose values are schemas', path);
        context.subschema(schema, path);
      }
      return undefined;
    },
  };
}

export const defs = definitionsKeyword('$defs');
export const definitions = definitionsKeyword('definitions');

/** `then`/`else` act through `if` (rules/conditions.ts); alone they do nothing. */
function conditionalBranch(name: string): KeywordDefinition<never> {
  return {name, subschemas: 'schema', compile: checkSchemaOnly};
}

/** A keyword that holds a schema but acts through another keyword (or not at all): check the shape only. */
function checkSchemaOnly(value: unknown, context: Parameters<KeywordDefinition['compile']>[1]): undefined {
  expectSchema(value, context);
  return undefined;
}

export const then = conditionalBranch('then');
export const otherwise = conditionalBranch('else');

/**
 * `contentSchema` holds a schema to scan, and is an annotation only beside `contentMediaType`
 * (2020-12 validation §8.5).
 */
export const contentSchema: KeywordDefinition<never> = {
  name: 'contentSchema',
  subschemas: 'schema',
  compile(value, context) {
    checkSchemaOnly(value, context);
    if (context.schema.contentMediaType !== undefined) context.annotate(value);
    return undefined;
  },
};

/** A keyword whose value is its annotation, and which does nothing else (`title`, `readOnly`...). */
function annotationOnly(name: string): KeywordDefinition<never> {
  return {
    name,
    compile(value, context) {
      context.annotate(value);
      return undefined;
    },
  };
}

export const title = annotationOnly('title');
export const description = annotationOnly('description');
export const defaultKeyword = annotationOnly('default');
export const examples = annotationOnly('examples');
export const readOnly = annotationOnly('readOnly');
export const writeOnly = annotationOnly('writeOnly');
export const deprecated = annotationOnly('deprecated');
export const contentMediaType = annotationOnly('contentMediaType');
export const contentEncoding = annotationOnly('contentEncoding');

/**
 * What a keyword annotates (KeywordContext.annotate), compiled as a keyword of its own when
 * annotations are collected: each value its schema applies to gets the annotation, which is kept
 * only if the schema passes there.
 */
export const annotation: KeywordDefinition<unknown> = {
  name: 'annotation',
  compile: () => undefined,
  begin(run, keyword) {
    run.annotate(keyword, keyword.value);
  },
};
