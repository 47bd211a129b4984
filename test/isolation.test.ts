// Isolation of documents in the core API: a compiled validator is shared by every document it
// judges, so no way out of one document (malformed or cut-off input, a limit, an early verdict,
// an abandoned session, the caller's own exception) may change what the next one is told. Each
// property runs a sequence of generated documents, hostile ones among them, through one validator
// and compares every outcome (verdict, errors with their positions, parseText's value, each
// session write's answer) with a validator compiled for that document alone. The issue's own
// reproductions are in test/security.test.ts (API) and test/isolation-http.test.ts (HTTP).

import {describe, test} from 'node:test';
import fc from 'fast-check';
import {schemaCaseArbitrary} from './support/arbitraries.js';
import {assertIsolated, isolationParameters, scenarioArbitrary, type Entry} from './support/isolation.js';

function isolationProperty(name: string, entries: readonly Entry[], runs: number, interleave = false): void {
  test(name, () => {
    fc.assert(
      fc.property(scenarioArbitrary(schemaCaseArbitrary, entries, {interleave, maxTasks: interleave ? 8 : 12}), assertIsolated),
      isolationParameters(runs),
    );
  });
}

describe('one shared validator tells every document what a fresh validator tells it', () => {
  isolationProperty('validate: values after hostile values (past a limit, not JSON, a cycle, a throwing getter)', ['validate'], 60);
  isolationProperty('validateText: documents after truncated, corrupted, repeated-key, trailing, over-limit and non-UTF-8 ones', ['validateText'], 80);
  isolationProperty('parseText: the same verdict, errors and value, and never an exception', ['parseText'], 80);
  isolationProperty('session() with any chunking, some sessions abandoned before their end', ['session'], 60);
  isolationProperty('two and more sessions written alternately', ['session'], 60, true);
  isolationProperty('every entry point interleaved on one validator', ['validate', 'validateText', 'parseText', 'session'], 80, true);
});
