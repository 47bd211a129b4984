// `propertyNames` (2020-12 core §10.3.2.4, from draft 6): every key, as a string, must validate
// against the schema. Decided when the key arrives, before its value (rules/members.ts).

import {nameApplicator} from './rules/members.js';

export const propertyNames = nameApplicator('propertyNames');
