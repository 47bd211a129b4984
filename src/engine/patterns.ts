// The regular expressions one document runs: `pattern` on its strings, `patternProperties` and
// `additionalProperties` on its property names. A regular expression can take time exponential in
// the length of its string on V8's backtracking engine (docs/security.md, ReDoS), and it is when a
// pattern fails that it backtracks most: so a pattern that failed on a string is not run on it
// again in the same document, whichever engine asks and however often.
//
// - The text checker and its generated code (src/engine/programs.ts) log the failures they
//   find (a push, no hashing). When the code does not pass a document, the checker reads it again,
//   and when the checker does not, the evaluator: each recalls from the log what was found failing
//   before it instead of running it again. Passes are not logged: most documents pass, and logging
//   every pass (a store of a young string into an old array per string) made validate and
//   validateText 1.4 to 1.7 times slower on records with two patterns each; a pass before the
//   failure is run again by the evaluator.
// - A plain string the text checker or its code holds where it stands in the text is matched
//   there by the pattern's twin, whose verdict is the pattern's (src/keywords/rules/inPlacePattern.ts):
//   a failure is logged as any other, and once one is, strings are copied out and recalled as usual.
// - The verdicts just found, passes too, are remembered for a few asks: a leaf's verdict asked
//   again for its report, `additionalProperties` asking what `patternProperties` just ran on the
//   same name (a compile runs each source once, so both hold one RegExp).
//
// A verdict depends on the regular expression and the string alone, so one recalled is the one
// the run would find. What is kept is forgotten when the document ends (see clear).

import type {Matcher, StringPattern} from '../schema/node.js';

/**
 * A `pattern`'s verdict on the plain string from `from` to `to` (its closing quote) in `source`,
 * matched where it stands; undefined where it must be copied out and run as usual.
 */
export type InPlaceMatcher = (pattern: StringPattern, source: string, from: number, to: number) => boolean | undefined;

/** Each twin run as asked (HeldScalar's default, as `runEachTime` is for patterns). */
export const inPlaceEachTime: InPlaceMatcher = (pattern, source, from) => {
  const twin = pattern.inPlace;
  if (twin === null) return undefined;
  twin.lastIndex = from;
  return twin.test(source);
};

/** Verdicts remembered as they are found, whichever engine finds them. */
const RECENT = 4;
/**
 * Failures the checker logs per document, at most: the evaluator runs again those past it. Bounds
 * the log (two references an entry, and a set entry once indexed) whatever the document.
 */
const MAX_LOGGED = 65536;

export class PatternTests {
  private readonly recentPatterns: (RegExp | null)[] = new Array(RECENT).fill(null);
  private readonly recentTexts: string[] = new Array(RECENT).fill('');
  private readonly recentVerdicts: boolean[] = new Array(RECENT).fill(false);
  private nextRecent = 0;
  /** Some recent verdict is remembered: most values run no pattern, and clear() then has nothing to do. */
  private remembers = false;
  /** The checker's failures: each pattern with the string it failed on. */
  private readonly failedPatterns: RegExp[] = [];
  private readonly failedTexts: string[] = [];
  /** The failures by pattern, made as the evaluator first recalls (those before `indexed`). */
  private index: Map<RegExp, Set<string>> | null = null;
  private indexed = 0;

  /**
   * The text checker's way, and its generated code's: a verdict, a failure logged for the
   * evaluator, and one logged already (by the code, which the checker reads after) recalled.
   */
  readonly run: Matcher = (pattern, text) => {
    const recent = this.recent(pattern, text);
    if (recent !== undefined) return recent;
    if (this.failedTexts.length > 0 && this.failedBefore(pattern, text)) return false;
    const verdict = this.found(pattern, text);
    if (!verdict) this.log(pattern, text);
    return verdict;
  };

  /**
   * The same for a plain string still in its text (`to` at its closing quote): the pattern's twin
   * run where the string stands, whose verdict is the pattern's (src/keywords/rules/inPlacePattern.ts),
   * and a failure logged with the string copied out. Undefined where there is no twin, or once a
   * failure has been logged: `run` then recalls it from the copy, as the checker reading a
   * document the code did not pass must.
   */
  readonly runInPlace: InPlaceMatcher = (pattern, source, from, to) => {
    const twin = pattern.inPlace;
    if (twin === null || this.failedTexts.length > 0) return undefined;
    twin.lastIndex = from;
    if (twin.test(source)) return true;
    this.log(pattern.regExp, source.slice(from, to));
    return false;
  };

  /** The evaluator's way: a failure the checker logged is recalled, not run again. */
  readonly test: Matcher = (pattern, text) => {
    const recent = this.recent(pattern, text);
    if (recent !== undefined) return recent;
    if (this.failedTexts.length > 0 && this.failedBefore(pattern, text)) return false;
    return this.found(pattern, text);
  };

  /**
   * Forget every verdict: the strings are the document's, which must not outlive it here. Called
   * for every value a session's checker judges apart, so it does nothing it need not.
   */
  clear(): void {
    if (this.remembers) {
      this.remembers = false;
      for (let i = 0; i < RECENT; i++) {
        this.recentPatterns[i] = null;
        this.recentTexts[i] = '';
      }
    }
    if (this.failedTexts.length === 0) return;
    // Setting `length` is a runtime call: popping is inlined, and the log is usually short.
    while (this.failedTexts.length > 0) {
      this.failedTexts.pop();
      this.failedPatterns.pop();
    }
    this.index = null;
    this.indexed = 0;
  }

  /**
   * Take over what `other` found (a session's checker's, src/session/document.ts): the failures it
   * logged and its last few verdicts, as if found here. Clears `other`.
   */
  adopt(other: PatternTests): void {
    const {failedPatterns, failedTexts} = other;
    for (let i = 0; i < failedTexts.length; i++) this.log(failedPatterns[i]!, failedTexts[i]!);
    for (let i = 0; i < RECENT; i++) {
      this.recentPatterns[i] = other.recentPatterns[i]!;
      this.recentTexts[i] = other.recentTexts[i]!;
      this.recentVerdicts[i] = other.recentVerdicts[i]!;
    }
    this.nextRecent = other.nextRecent;
    this.remembers = other.remembers;
    other.clear();
  }

  private log(pattern: RegExp, text: string): void {
    if (this.failedTexts.length >= MAX_LOGGED) return;
    this.failedPatterns.push(pattern);
    this.failedTexts.push(text);
  }

  /** Run `pattern` on `text`, and remember the verdict for the next few asks. */
  private found(pattern: RegExp, text: string): boolean {
    const verdict = pattern.test(text);
    this.remembers = true;
    const slot = this.nextRecent;
    this.nextRecent = (slot + 1) % RECENT;
    this.recentPatterns[slot] = pattern;
    this.recentTexts[slot] = text;
    this.recentVerdicts[slot] = verdict;
    return verdict;
  }

  private recent(pattern: RegExp, text: string): boolean | undefined {
    for (let i = 0; i < RECENT; i++) if (this.recentPatterns[i] === pattern && this.recentTexts[i] === text) return this.recentVerdicts[i];
    return undefined;
  }

  private failedBefore(pattern: RegExp, text: string): boolean {
    const index = (this.index ??= new Map());
    const {failedPatterns, failedTexts} = this;
    for (; this.indexed < failedTexts.length; this.indexed++) {
      const failed = failedPatterns[this.indexed]!;
      let texts = index.get(failed);
      if (texts === undefined) index.set(failed, (texts = new Set()));
      texts.add(failedTexts[this.indexed]!);
    }
    return index.get(pattern)?.has(text) === true;
  }
}
