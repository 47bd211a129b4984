// URI handling for `$id`, `$ref` and friends (RFC 3986 resolution through WHATWG URL).

/** Base URI of a schema document that names none. Non-special scheme, so relative references resolve. */
export const DEFAULT_BASE_URI = 'stream-schema:///root.json';

/** Resolve `reference` against `base`; undefined when it is not a valid URI reference. */
export function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

/** Split an absolute URI into the resource part and the decoded fragment (without `#`). */
export function splitFragment(uri: string): {resource: string; fragment: string} {
  const hash = uri.indexOf('#');
  if (hash === -1) return {resource: uri, fragment: ''};
  let fragment = uri.slice(hash + 1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // keep the raw fragment: it will fail to resolve and be reported as such
  }
  return {resource: uri.slice(0, hash), fragment};
}

/** The URI without any fragment, as used for resource identity. */
export function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}

/** `text` as an absolute URI (normalized), or undefined when it is relative or no URI at all. */
export function absoluteUri(text: string): string | undefined {
  try {
    return new URL(text).href;
  } catch {
    return undefined;
  }
}

/** The last path segment of a URI (`b.json` of `file:///a/b.json#/x`). */
function lastSegment(uri: string): string {
  const path = withoutFragment(uri);
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Edit distance (insertions, deletions, substitutions), for suggestions only. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Of `candidates`, up to `count` that come close to `uri`: for a URI without a fragment, those
 * with the same last path segment (a file registered under its `$id` and referenced by its
 * retrieval URI, or the reverse); then those a few edits away (a typo), closest first.
 */
export function closestUris(uri: string, candidates: readonly string[], count = 3): string[] {
  const segment = uri.includes('#') ? '' : lastSegment(uri);
  const scored: [string, number][] = [];
  for (const candidate of candidates) {
    if (candidate === uri) continue;
    // A typo is judged on what follows the common prefix: URIs of one place share a long one.
    let common = 0;
    while (common < uri.length && uri[common] === candidate[common]) common++;
    const distance = editDistance(uri.slice(common), candidate.slice(common));
    const sameSegment = segment !== '' && lastSegment(candidate) === segment;
    if (sameSegment || distance <= Math.max(2, Math.floor((uri.length - common) / 3))) scored.push([candidate, sameSegment ? distance - 10_000 : distance]);
  }
  return scored
    .sort((a, b) => a[1] - b[1])
    .slice(0, count)
    .map(([candidate]) => candidate);
}
