// JSON Pointer (RFC 6901) helpers.

/** Escape one reference token: `~` → `~0`, `/` → `~1`. */
export function escapePointerToken(token: string): string {
  if (token.indexOf('~') === -1 && token.indexOf('/') === -1) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Split a JSON pointer into unescaped reference tokens. `''` is the whole document. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (pointer[0] !== '/') return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Follow a pointer into a JSON value; undefined when a token does not resolve. */
export function resolvePointer(root: unknown, tokens: readonly string[]): unknown {
  let current: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object' && Object.prototype.hasOwnProperty.call(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}

/**
 * The keys a pointer walks through `root`: strings, and numbers where the value there is an array
 * (a pointer alone cannot tell index `0` from key `"0"`). Past where `root` has no value, strings.
 */
export function pathOfPointer(root: unknown, pointer: string): Array<string | number> {
  const tokens = parsePointer(pointer) ?? [];
  const path: Array<string | number> = [];
  let current: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(token)) {
      path.push(Number(token));
      current = current[Number(token)];
    } else {
      path.push(token);
      current = current !== null && typeof current === 'object' && Object.prototype.hasOwnProperty.call(current, token) ? (current as Record<string, unknown>)[token] : undefined;
    }
  }
  return path;
}
