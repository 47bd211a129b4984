// `format` (2020-12 validation §7): an annotation by default; with the option `formats: 'assert'`
// (or a meta-schema that enables the format-assertion vocabulary) a string must have the format.
// Unknown formats always pass (§7.2.3).

import type {FormatCheck} from '../formats/index.js';
import {STRING} from '../schema/node.js';
import {scalarCheck} from './rules/scalarCheck.js';

interface Format {
  readonly name: string;
  readonly check: FormatCheck;
}

export const format = scalarCheck<Format>({
  name: 'format',
  compile(value, context) {
    if (typeof value !== 'string') throw context.fail('must be a string');
    if (context.options.formats !== 'assert' && !context.assertFormats) return undefined;
    const check = context.formats.get(value);
    return check === undefined ? undefined : {name: value, check};
  },
  accepts: (keyword, kind, scalar) => kind !== STRING || keyword.value.check(scalar.text),
  failure: (keyword) => [`must match format "${keyword.value.name}"`, {format: keyword.value.name}],
});
