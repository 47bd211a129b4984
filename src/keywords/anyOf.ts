// `anyOf` (2020-12 core §10.2.1.2): at least one subschema must validate. Branches run in parallel
// over the same events; the keyword fails when the last of them has failed. Every passing branch
// contributes annotations, so branches keep running when someone collects them (rules/branches.ts).

import {someBranches} from './rules/branches.js';

export const anyOf = someBranches('anyOf', false);
