// The `format` checks, as one table per draft (JSON Schema validation, "Defined Formats": draft 4 §7.3,
// draft 6 §8.3, draft 7 §7.3, 2019-09 §7.3, 2020-12 §7.3). Each draft's table is the previous one plus
// what that draft added, so a new draft is one new table.

import type { Draft } from '../types.js';
import { isDate, isDateTime, isTime } from './date-time.js';
import { isDuration } from './duration.js';
import { isEmail, isIdnEmail } from './email.js';
import { isHostname, isIdnHostname } from './hostname.js';
import { isIpv4, isIpv6 } from './ip.js';
import { isJsonPointer, isRelativeJsonPointer, isRelativeJsonPointerWithIndexManipulation } from './json-pointer.js';
import { isRegex } from './regex.js';
import { isUriTemplate } from './uri-template.js';
import { isIri, isIriReference, isUri, isUriReference } from './uri.js';
import { isUuid } from './uuid.js';

export type FormatCheck = (value: string) => boolean;

const draft4: ReadonlyMap<string, FormatCheck> = new Map<string, FormatCheck>([
  ['date-time', isDateTime],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', isIpv4],
  ['ipv6', isIpv6],
  ['uri', isUri],
]);

const draft6: ReadonlyMap<string, FormatCheck> = new Map<string, FormatCheck>([
  ...draft4,
  ['uri-reference', isUriReference],
  ['uri-template', isUriTemplate],
  ['json-pointer', isJsonPointer],
]);

const draft7: ReadonlyMap<string, FormatCheck> = new Map<string, FormatCheck>([
  ...draft6,
  ['iri', isIri],
  ['iri-reference', isIriReference],
  ['idn-email', isIdnEmail],
  ['idn-hostname', isIdnHostname],
  ['relative-json-pointer', isRelativeJsonPointer],
  ['regex', isRegex],
  ['date', isDate],
  ['time', isTime],
]);

const draft2019: ReadonlyMap<string, FormatCheck> = new Map<string, FormatCheck>([
  ...draft7,
  ['duration', isDuration],
  ['uuid', isUuid],
]);

// 2020-12 cites draft-bhutton-relative-json-pointer-00, which allows index manipulation ("0+1").
const draft2020: ReadonlyMap<string, FormatCheck> = new Map<string, FormatCheck>([
  ...draft2019,
  ['relative-json-pointer', isRelativeJsonPointerWithIndexManipulation],
]);

const formatsByDraft: Readonly<Record<Draft, ReadonlyMap<string, FormatCheck>>> = {
  draft4,
  draft6,
  draft7,
  'draft2019-09': draft2019,
  'draft2020-12': draft2020,
};

/** The format checks each draft knows, by format name. Unknown formats are not in the table (they always pass). */
export function formatsFor(draft: Draft): ReadonlyMap<string, FormatCheck> {
  return formatsByDraft[draft];
}
