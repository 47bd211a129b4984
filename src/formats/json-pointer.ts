// RFC 6901 §3 JSON Pointer, and Relative JSON Pointer: draft-handrews-relative-json-pointer-01 §3
// (draft 7, and -02 for 2019-09, same syntax) and draft-bhutton-relative-json-pointer-00 §3 (2020-12),
// which adds index manipulation.

// RFC 6901 §3: json-pointer = *( "/" reference-token ); "~" only as "~0" or "~1".
const jsonPointerPattern = /^(?:\/(?:[^~/]|~[01])*)*$/u;
// handrews-01 §3: non-negative-integer ( "#" / json-pointer ), no leading zeros.
const relativePrefixPattern = /^(?:0|[1-9][0-9]*)/;
// bhutton-00 §3: origin-specification = non-negative-integer [ index-manipulation ], where
// index-manipulation = ( "+" / "-" ) positive-integer.
const originSpecificationPattern = /^(?:0|[1-9][0-9]*)(?:[+-][1-9][0-9]*)?/;

export function isJsonPointer(value: string): boolean {
  return jsonPointerPattern.test(value);
}

/** The part after the prefix is "#" or a JSON Pointer. */
function isRelativePointerWith(prefixPattern: RegExp, value: string): boolean {
  const prefix = prefixPattern.exec(value);
  if (prefix === null) return false;
  const rest = value.slice(prefix[0].length);
  return rest === '#' || isJsonPointer(rest);
}

export function isRelativeJsonPointer(value: string): boolean {
  return isRelativePointerWith(relativePrefixPattern, value);
}

export function isRelativeJsonPointerWithIndexManipulation(value: string): boolean {
  return isRelativePointerWith(originSpecificationPattern, value);
}
