// `not` (2020-12 core §10.2.1.4): the subschema must fail. Its annotations never count.

import type {KeywordDefinition, SchemaNode} from '../schema/node.js';
import {expectSchema} from './rules/expect.js';

export const not: KeywordDefinition<SchemaNode> = {
  name: 'not',
  startsRunsOnScalars: true,
  discardsErrors: () => true,
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    return context.subschema(value, '');
  },
  outline: (keyword, outline) => outline.none(keyword.value),
  begin(run, keyword) {
    run.applyInPlace(keyword.value, keyword, 0, '/not');
  },
  result(run, keyword, child) {
    if (!child.failed) run.fail(keyword, 'must NOT be valid');
  },
};
