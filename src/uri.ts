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
