// JSON Schema validation §7.3.8 (2020-12), §7.3.8 (draft 7): a regular expression in the ECMA-262
// dialect. Compiling with the `u` flag makes the engine apply the strict Unicode-mode grammar
// (ECMA-262 §22.2.1), which rejects Annex B leniencies such as the identity escape `\a`.

export function isRegex(value: string): boolean {
  try {
    new RegExp(value, 'u');
    return true;
  } catch {
    return false;
  }
}
