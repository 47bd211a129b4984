// Member application (2020-12 core §10.3): a subschema applied to the value of one property or
// item. What `properties`, `patternProperties`, `additionalProperties` and `items` share.

import type {Run} from '../../schema/node.js';

/**
 * A failed member fails the keyword. A passing member changes nothing here; its annotations belong
 * to its own location, not to this one.
 */
export function requireMember(run: Run, _keyword: unknown, child: Run): void {
  if (child.failed) run.failWith(child);
}
