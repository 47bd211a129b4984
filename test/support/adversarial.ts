// Inputs that aim at the worst case of each format check and of sessions, for test/linear.test.ts
// and benchmarks/linear-time.ts. Each is built to about the length asked for.

/** Whole copies of `unit`, about `length` code units of them. */
function repeated(unit: string, length: number): string {
  return unit.repeat(Math.max(1, Math.round(length / unit.length)));
}

/**
 * Per format name, a string of about `length` code units that reaches as far into its check as
 * such a string can: long runs a pattern backtracks over, labels the IDNA rules read whole,
 * property escapes the regex engine expands. `salt` makes a `regex` input differ from the last one
 * (the engine caches compiled patterns by their text).
 */
export function adversarialFormatInputs(length: number, salt = 0): Record<string, string> {
  return {
    'date-time': `2020-01-01T00:00:00.${repeated('1', length)}x`,
    date: repeated('1', length),
    time: `00:00:00.${repeated('1', length)}x`,
    duration: `P${repeated('1', length)}X`,
    email: `${repeated('a', length)}@example.com`,
    'idn-email': `a@${repeated('\u0627\u0661', length)}`,
    hostname: repeated('a.', length),
    // Arabic letters and Arabic-Indic digits: each digit's RFC 5892 A.8 rule reads the whole label.
    'idn-hostname': repeated('\u0627\u0661', length),
    ipv4: repeated('1.', length),
    ipv6: `${repeated('1:', length)}:`,
    uri: `http://a/${repeated('%41', length)}%`,
    'uri-reference': `/${repeated('a/', length)}%`,
    iri: `http://a?${repeated('\u00e9', length)}\u0000`,
    'iri-reference': `${repeated('\u00e9/', length)}%`,
    'uri-template': `{${repeated('a.', length)}}`,
    'json-pointer': `/${repeated('a', length)}~`,
    'relative-json-pointer': `0${repeated('/a', length)}~`,
    regex: `${'a'.repeat(salt)}${repeated('\\p{L}', length)}`,
    uuid: repeated('a', length),
  };
}

/**
 * Deeply nested documents of about `bytes` bytes (ASCII): arrays, objects, both in turn, and
 * arrays whose innermost value is a string (which a schema asking for arrays and numbers fails).
 */
export function deepDocuments(bytes: number): Record<string, string> {
  const nested = (open: string, inner: string, close: string): string => {
    const depth = Math.floor((bytes - inner.length) / (open.length + close.length));
    return open.repeat(depth) + inner + close.repeat(depth);
  };
  return {
    arrays: nested('[', '', ']'),
    objects: nested('{"a":', '1', '}'),
    'arrays and objects': nested('[{"a":', '1', '}]'),
    'arrays around a string': nested('[', '"x"', ']'),
  };
}
