// `unevaluatedItems` (2020-12 core §11.2, from 2019-09): items that no successful subschema at this
// location evaluated must validate against it; in 2020-12 the items `contains` matched count as
// evaluated (rules/unevaluated.ts).

import {unevaluatedItemsApplicator} from './rules/unevaluated.js';

export const unevaluatedItems = unevaluatedItemsApplicator('unevaluatedItems');
