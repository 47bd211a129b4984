// `oneOf` (2020-12 core §10.2.1.3): exactly one subschema must validate. A second passing branch
// fails the keyword at once; otherwise the verdict comes when every branch has settled
// (rules/branches.ts).

import {someBranches} from './rules/branches.js';

export const oneOf = someBranches('oneOf', true);
