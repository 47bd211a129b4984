// Shape checks shared by keyword compilers. Each throws a SchemaError through `context.fail`.

import {SchemaError} from '../../output/errors.js';
import type {KeywordContext, SchemaNode} from '../../schema/node.js';
import {exponentialPart} from './exponential.js';

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isSchema(value: unknown): boolean {
  return typeof value === 'boolean' || isObject(value);
}

export function expectSchema(value: unknown, context: KeywordContext): void {
  if (!isSchema(value)) throw context.fail('must be a schema (an object or a boolean)');
}

/** A keyword whose value is one schema: that schema, compiled. */
export function compileSchema(value: unknown, context: KeywordContext): SchemaNode {
  expectSchema(value, context);
  return context.subschema(value, '');
}

export function expectSchemaArray(value: unknown, context: KeywordContext): asserts value is unknown[] {
  if (!Array.isArray(value)) throw context.fail('must be an array of schemas');
  if (value.length === 0) throw context.fail('must be a non-empty array of schemas');
  value.forEach((item, index) => {
    if (!isSchema(item)) throw context.fail('must be an array of schemas', '/' + index);
  });
}

export function expectSchemaMap(value: unknown, context: KeywordContext): asserts value is Record<string, unknown> {
  if (!isObject(value)) throw context.fail('must be an object whose values are schemas');
}

export function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** The same context, with SchemaError locations below `relativePath` (e.g. one entry of a map). */
export function contextAt(context: KeywordContext, relativePath: string): KeywordContext {
  return {...context, fail: (reason: string, below = '') => context.fail(reason, relativePath + below)};
}

export function expectNonNegativeInteger(value: unknown, context: KeywordContext): number {
  // 2020-12 validation §6: "a non-negative integer"; 1.0 is an integer in JSON Schema.
  if (!isNonNegativeInteger(value)) throw context.fail('must be a non-negative integer');
  return value;
}

export function expectNumber(value: unknown, context: KeywordContext): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw context.fail('must be a number');
  return value;
}

export function expectUniqueStrings(value: unknown, context: KeywordContext): string[] {
  if (!Array.isArray(value)) throw context.fail('must be an array of unique strings');
  const seen = new Set<string>();
  value.forEach((item, index) => {
    if (typeof item !== 'string') throw context.fail('must be an array of unique strings', '/' + index);
    if (seen.has(item)) throw context.fail(`must be an array of unique strings ("${item}" is repeated)`, '/' + index);
    seen.add(item);
  });
  return value as string[];
}

/**
 * ECMA-262 regular expression with the `u` flag, unanchored (2020-12 core §6.4). With the
 * `refuseExponentialPatterns` option, one that can take time exponential in its string is a
 * SchemaError (rules/exponential.ts).
 */
export function compilePattern(source: unknown, context: KeywordContext, relativePath = ''): RegExp {
  if (typeof source !== 'string') throw context.fail('must be a string (a regular expression)', relativePath);
  let pattern: RegExp;
  try {
    pattern = context.regExp(source);
  } catch (error) {
    return context.fail(`invalid regular expression /${source}/: ${(error as Error).message}`, relativePath);
  }
  const exponential = context.options.refuseExponentialPatterns === true ? exponentialPart(source) : undefined;
  if (exponential !== undefined) {
    throw new SchemaError('schema.pattern.exponential', context.location + relativePath, `/${source}/ can take time exponential in the length of a string (refuseExponentialPatterns): ${exponential}`);
  }
  return pattern;
}

