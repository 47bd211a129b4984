// How many times a regular expression runs while some work is done, counted by its source: for the
// tests that each pattern runs once per string it applies to in a document (src/engine/patterns.ts).

import {compile} from '../../src/index.js';
import {inPlaceTwin} from '../../src/keywords/rules/inPlacePattern.js';
import {memberValues} from '../../src/session/memberSink.js';
import type {CompileOptions} from '../../src/types.js';

/**
 * Runs of regular expressions whose source is `source` during `work` (on the string `on` only, if
 * given), its twin that matches a string where it stands in the text included
 * (src/keywords/rules/inPlacePattern.ts). RegExp.prototype.test and every other matching method
 * call `exec` once it is not the built-in one (ECMA-262 §22.2.7.1, RegExpExec), so counting there
 * counts every run, whoever asks.
 */
export function runsOf(source: string, work: () => unknown, on?: string): number {
  const builtIn = RegExp.prototype.exec;
  const twin = inPlaceTwin(new RegExp(source, 'u'))?.source;
  let runs = 0;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    // The twin runs on the whole text, from the string's first character to its closing quote.
    const string = this.source === twin ? text.slice(this.lastIndex, text.indexOf('"', this.lastIndex)) : text;
    if ((this.source === source || this.source === twin) && (on === undefined || string === on)) runs++;
    return builtIn.call(this, text);
  };
  try {
    work();
  } finally {
    RegExp.prototype.exec = builtIn;
  }
  return runs;
}

/** A way a document reaches a freshly compiled validator (nothing cached from another document). */
export interface Door {
  readonly name: string;
  validate(schema: object, text: string, options?: CompileOptions): boolean;
}

function session(schema: object, chunks: readonly string[], options?: CompileOptions): boolean {
  const document = compile(schema, options).session();
  for (const chunk of chunks) document.write(chunk);
  return document.end().valid;
}

/** A session whose member values are judged apart by the checker wherever they can be (see MemberSink). */
function sessionJudgingMembersApart(schema: object, text: string, options?: CompileOptions): boolean {
  const threshold = memberValues.worthIt;
  memberValues.worthIt = 0;
  try {
    return session(schema, [text], options);
  } finally {
    memberValues.worthIt = threshold;
  }
}

export const doors: readonly Door[] = [
  {name: 'validate', validate: (schema, text, options) => compile(schema, options).validate(JSON.parse(text)).valid},
  {name: 'validateText', validate: (schema, text, options) => compile(schema, options).validateText(text).valid},
  {name: 'validateText (bytes)', validate: (schema, text, options) => compile(schema, options).validateText(new TextEncoder().encode(text)).valid},
  {name: 'parseText', validate: (schema, text, options) => compile(schema, options).parseText(text).valid},
  {name: 'session, one write', validate: (schema, text, options) => session(schema, [text], options)},
  {name: 'session, a character at a time', validate: (schema, text, options) => session(schema, [...text], options)},
  {name: 'session, member values judged apart', validate: sessionJudgingMembersApart},
];

/** Each door's verdict on `text` and the runs of `source` it took (on the string `on`, if given), as `door: verdict, runs`. */
export function runsByDoor(schema: object, text: string, source: string, options?: CompileOptions, on?: string): string[] {
  return doors.map((door) => {
    let valid = false;
    const runs = runsOf(source, () => (valid = door.validate(schema, text, options)), on);
    return `${door.name}: ${valid ? 'valid' : 'invalid'}, ${runs}`;
  });
}

/** What runsByDoor should say when every door finds `verdict` with `runs` runs. */
export function everyDoor(verdict: 'valid' | 'invalid', runs: number): string[] {
  return doors.map((door) => `${door.name}: ${verdict}, ${runs}`);
}
