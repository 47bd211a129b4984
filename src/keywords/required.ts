// `required` (2020-12 validation §6.5.3): every listed name must be present. A property whose value
// is null is present. Which names arrived is a bit set; the verdict comes at the object's close
// (rules/presence.ts).

import {expectUniqueStrings} from './rules/expect.js';
import {presenceApplicator, requirementsOf} from './rules/presence.js';

export const required = presenceApplicator('required', (value, context) => {
  const names = expectUniqueStrings(value, context);
  // Draft 4 (validation §5.4.3): "This array MUST have at least one element."
  if (names.length === 0 && context.draft.name === 'draft4') throw context.fail('must have at least one element in draft 4');
  return names.length === 0 ? undefined : requirementsOf([{trigger: undefined, names}]);
});
