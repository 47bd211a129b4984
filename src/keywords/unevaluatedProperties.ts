// `unevaluatedProperties` (2020-12 core §11.3, from 2019-09): properties that no successful
// subschema at this location evaluated must validate against it (rules/unevaluated.ts).

import {unevaluatedPropertiesApplicator} from './rules/unevaluated.js';

export const unevaluatedProperties = unevaluatedPropertiesApplicator('unevaluatedProperties');
