// `if` / `then` / `else` (2020-12 core §10.2.2.1-3, from draft 7): when `if` passes, `then` applies;
// when it fails, `else` does. `then` and `else` without `if` do nothing, so they compile to
// nothing (keywords/annotations.ts); `if` reads them as its siblings (rules/conditions.ts).

import {conditional} from './rules/conditions.js';

export const ifThenElse = conditional('if', 'then', 'else');
