// `not` (2020-12 core §10.2.1.4): the subschema must fail; its annotations never count
// (rules/branches.ts).

import {noBranch} from './rules/branches.js';

export const not = noBranch('not', 'must NOT be valid');
