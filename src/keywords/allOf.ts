// `allOf` (2020-12 core §10.2.1.1): every subschema applies at this location; the first to fail
// fails the keyword, at once (rules/branches.ts).

import {everyBranch} from './rules/branches.js';

export const allOf = everyBranch('allOf');
