// A session of the evaluator alone: the reference where a test compares the checker, its
// generated code or a session (which reads with the checker first, src/session/document.ts) with
// what the evaluator finds by itself.

import type {Document} from '../../src/session/document.js';
import type {Session, Validator} from '../../src/types.js';

export function evaluatorSession(validator: Validator): Session {
  const document = (validator as unknown as {document(): Document}).document();
  document.beginText(false, !validator.allErrors, false);
  return document;
}
