// `$ref` (2020-12 core §8.2.3.1): the referenced schema applies at this location. Resolved once at
// compile time to a node (cycles allowed: recursion follows the instance, one level per member).
// Before 2019-09 `$ref` hides its siblings; the draft table's `identifiers.hidesSiblings` says so.

import type {SchemaNode} from '../schema/node.js';
import {compileReference, referenceApplicator} from './rules/references.js';

export const ref = referenceApplicator<SchemaNode>({name: '$ref', compile: compileReference});
