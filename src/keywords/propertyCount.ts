// `minProperties` / `maxProperties` (2020-12 validation §6.5.1-2). `maxProperties` fails at the key
// that is one too many; `minProperties` can only be decided at the close (rules/counts.ts).

import {maximumCount, minimumCount} from './rules/counts.js';

export const maxProperties = maximumCount('maxProperties', 'properties');
export const minProperties = minimumCount('minProperties', 'properties');
