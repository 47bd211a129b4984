// `minItems` / `maxItems` (2020-12 validation §6.4.1-2). `maxItems` fails at the item that is one
// too many; `minItems` at the close (rules/counts.ts).

import {maximumCount, minimumCount} from './rules/counts.js';

export const maxItems = maximumCount('maxItems', 'items');
export const minItems = minimumCount('minItems', 'items');
