// RFC 4122 §3: the string representation is 8-4-4-4-12 hex digits, case-insensitive on input. Any
// version and variant nibble is accepted: the format is about the syntax.

const uuidPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
