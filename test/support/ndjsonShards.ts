// NDJSON inputs with every case that a cut between batches, workers or byte ranges could get
// wrong, shared by the tests of adapters/ndjson-workers.ts and adapters/cli-jobs.ts.

import fc from 'fast-check';

export const SHARD_SCHEMA = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 }, tag: { type: 'string', maxLength: 3 } } };

const encoder = new TextEncoder();

/** One line of each kind, without its line end; each a byte sequence, some not valid UTF-8. */
export const LINE_KINDS: readonly Uint8Array[] = [
  encoder.encode('{"id":1,"tag":"ab"}'),
  encoder.encode('{"id":0}'),
  encoder.encode('{"id":2,"tag":"ééé€"}'),
  encoder.encode('{"id":3,"tag":"😀😀"}'),
  encoder.encode('{"id":4,"tag":'),
  encoder.encode(''),
  encoder.encode('  \t '),
  encoder.encode('\ufeff{"id":5}'),
  encoder.encode(`{"id":6,"tag":"${'x'.repeat(300)}"}`),
  // Invalid UTF-8: a lead byte with no continuation, right before the line's end, and a stray continuation byte.
  new Uint8Array([...encoder.encode('{"id":7,"tag":"a'), 0xc3]),
  new Uint8Array([...encoder.encode('{"id":8,"tag":"'), 0x80, ...encoder.encode('"}')]),
  encoder.encode('[1,2]'),
];

export interface NdjsonLine {
  kind: number;
  crlf: boolean;
}

/** A whole input: a BOM or not, lines of the kinds above with LF or CRLF, a last line with or without its LF. */
export function ndjsonBytes(bom: boolean, lines: readonly NdjsonLine[], finalLineFeed: boolean): Uint8Array {
  const parts: number[] = bom ? [0xef, 0xbb, 0xbf] : [];
  lines.forEach(({ kind, crlf }, index) => {
    parts.push(...LINE_KINDS[kind]!);
    if (index === lines.length - 1 && !finalLineFeed) return;
    if (crlf) parts.push(0x0d);
    parts.push(0x0a);
  });
  return Uint8Array.from(parts);
}

export const ndjsonInput = fc
  .record({
    bom: fc.boolean(),
    lines: fc.array(fc.record({ kind: fc.nat({ max: LINE_KINDS.length - 1 }), crlf: fc.boolean() }), { minLength: 0, maxLength: 40 }),
    finalLineFeed: fc.boolean(),
  })
  .map(({ bom, lines, finalLineFeed }) => ndjsonBytes(bom, lines, finalLineFeed));

/** Every kind of line, twice, in an order that puts different kinds side by side. */
export function fixtureBytes(): Uint8Array {
  const lines: NdjsonLine[] = [];
  for (let round = 0; round < 2; round++) {
    for (let kind = 0; kind < LINE_KINDS.length; kind++) lines.push({ kind: (kind * 5 + round) % LINE_KINDS.length, crlf: (kind + round) % 3 === 0 });
  }
  return ndjsonBytes(true, lines, false);
}
