// `minLength` / `maxLength` (2020-12 validation §6.3.1-2): length in Unicode code points.

import {STRING} from '../schema/node.js';
import {scalarCheck} from './rules/scalarCheck.js';
import {expectNonNegativeInteger} from './rules/expect.js';

export const maxLength = scalarCheck<number>({
  name: 'maxLength',
  compile: expectNonNegativeInteger,
  // UTF-16 length is an upper bound of the code-point length: most strings need no count.
  accepts: (keyword, kind, scalar) => kind !== STRING || scalar.units <= keyword.value || scalar.codePoints() <= keyword.value,
  failure: (keyword) => [`must NOT have more than ${keyword.value} characters`, {limit: keyword.value}],
  // Every string longer than the limit fails, whatever its text.
  stringsAlikePast: (keyword) => keyword.value,
});

export const minLength = scalarCheck<number>({
  name: 'minLength',
  compile: (value, context) => expectNonNegativeInteger(value, context) || undefined,
  accepts: (keyword, kind, scalar) => kind !== STRING || scalar.codePoints() >= keyword.value,
  failure: (keyword) => [`must NOT have fewer than ${keyword.value} characters`, {limit: keyword.value}],
  // Every string of the limit or longer passes, whatever its text.
  stringsAlikePast: (keyword) => keyword.value - 1,
});
