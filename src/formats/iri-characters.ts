// RFC 3987 §2.2 character ranges that IRIs (and RFC 6570 URI Template literals) add to URIs.

/** RFC 3987 §2.2 ucschar. */
export function isUcschar(codePoint: number): boolean {
  if (codePoint >= 0xa0 && codePoint <= 0xd7ff) return true;
  if (codePoint >= 0xf900 && codePoint <= 0xfdcf) return true;
  if (codePoint >= 0xfdf0 && codePoint <= 0xffef) return true;
  if (codePoint >= 0xe1000 && codePoint <= 0xefffd) return true;
  // %x10000-1FFFD / %x20000-2FFFD / ... / %xD0000-DFFFD: planes 1-13 minus their last two code points.
  return codePoint >= 0x10000 && codePoint <= 0xdffff && (codePoint & 0xfffe) !== 0xfffe;
}

/** RFC 3987 §2.2 iprivate. */
export function isIprivate(codePoint: number): boolean {
  return (
    (codePoint >= 0xe000 && codePoint <= 0xf8ff) ||
    (codePoint >= 0xf0000 && codePoint <= 0xffffd) ||
    (codePoint >= 0x100000 && codePoint <= 0x10fffd)
  );
}
