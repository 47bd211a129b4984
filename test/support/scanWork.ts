// How many characters the scans made while `work` ran looked at: each search by a regular
// expression (from its lastIndex, when global or sticky, to where it stopped) and each
// String#indexOf (from its start to what it found, or to the end). The text scanner and the
// tokenizer find quotes, escapes, control characters and line feeds with nothing else, so work
// that grows faster than the text shows here as a count, the same on every machine: a test
// asserts on it where it would otherwise have had to time the work.
//
// What a regular expression does inside one search (its backtracking) is not counted.

export function scanWork(work: () => void): number {
  const {test, exec} = RegExp.prototype;
  const {indexOf} = String.prototype;
  let examined = 0;
  const searched = (regex: RegExp, text: string, start: number, found: boolean): void => {
    // A global or sticky search that fails sets lastIndex to 0: it read to the end.
    const end = found && (regex.global || regex.sticky) ? regex.lastIndex : text.length;
    examined += Math.max(0, end - start);
  };
  RegExp.prototype.test = function (this: RegExp, input: string): boolean {
    const start = this.global || this.sticky ? this.lastIndex : 0;
    const found = test.call(this, input);
    searched(this, String(input), start, found);
    return found;
  };
  RegExp.prototype.exec = function (this: RegExp, input: string): RegExpExecArray | null {
    const start = this.global || this.sticky ? this.lastIndex : 0;
    const found = exec.call(this, input);
    searched(this, String(input), start, found !== null);
    return found;
  };
  String.prototype.indexOf = function (this: string, search: string, position?: number): number {
    const found = indexOf.call(this, search, position);
    const start = Math.min(Math.max(0, Math.trunc(position ?? 0)), this.length);
    examined += Math.max(0, (found < 0 ? this.length : found) - start);
    return found;
  };
  try {
    work();
  } finally {
    RegExp.prototype.test = test;
    RegExp.prototype.exec = exec;
    String.prototype.indexOf = indexOf;
  }
  return examined;
}
