// `minLength` / `maxLength` (2020-12 validation §6.3.1-2): length in Unicode code points.

import {STRING, type KeywordDefinition} from '../schema.js';
import {codePointLength, expectNonNegativeInteger} from './shapes.js';

export const maxLength: KeywordDefinition<number> = {
  name: 'maxLength',
  compile: expectNonNegativeInteger,
  scalar(run, keyword) {
    if (run.kind !== STRING) return;
    const text = run.evaluator.text;
    // UTF-16 length is an upper bound of the code-point length: most strings need no count.
    if (text.length <= keyword.value || codePointLength(text) <= keyword.value) return;
    run.fail(keyword, `must NOT have more than ${keyword.value} characters`, {limit: keyword.value});
  },
};

export const minLength: KeywordDefinition<number> = {
  name: 'minLength',
  compile: (value, context) => expectNonNegativeInteger(value, context) || undefined,
  scalar(run, keyword) {
    if (run.kind !== STRING) return;
    if (codePointLength(run.evaluator.text) < keyword.value) {
      run.fail(keyword, `must NOT have fewer than ${keyword.value} characters`, {limit: keyword.value});
    }
  },
};
