// The limits every reader of a document holds it to unless told otherwise (`Limits` in
// ../types.ts says what each bounds and why).

import type {Limits} from '../types.js';

export const defaultLimits: Required<Limits> = {
  maxDepth: 1000,
  maxStringLength: 16 * 1024 * 1024,
  maxKeyLength: 65536,
  maxProperties: 1 << 20,
  maxNumberLength: 4096,
  maxUniqueItems: 1 << 23,
  maxAssembledValues: 1 << 23,
  maxApplications: 32,
  inexactNumbers: 'allow'
};
