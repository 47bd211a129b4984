// `propertyNames` (2020-12 core §10.3.2.4, from draft 6): every key, as a string, must validate
// against the schema. Decided when the key arrives, before its value.

import type {KeywordDefinition, SchemaNode} from '../schema/node.js';
import {expectSchema} from './rules/expect.js';

export const propertyNames: KeywordDefinition<SchemaNode> = {
  name: 'propertyNames',
  discardsErrors: () => true,
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    return context.subschema(value, '');
  },
  outline: (keyword, outline) => outline.keyNames(keyword.value),
  key(run, keyword, name) {
    run.evaluator.applyToString(run, keyword.value, keyword, name, '/propertyNames');
  },
  result(run, keyword, child) {
    if (!child.failed) return;
    run.fail(keyword, `property name "${run.evaluator.currentKey()}" is invalid`, {propertyName: run.evaluator.currentKey()});
  },
};
