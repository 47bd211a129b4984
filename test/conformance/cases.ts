// The cases of the hostile conformance suite, as data: what a door is mounted with, the bodies it
// is sent, and what must hold. hostile.test.ts runs each against every row of doors.ts; a row
// skips one only with a reason written in its `skip`. Each case is named after what it protects,
// and says where it comes from (the reproduction, or the per-door test it replaces).

import {gzipSync} from 'node:zlib';

import Ajv from 'ajv';

import {compile} from '../../src/index.js';
import type {Limits} from '../../src/types.js';
import {accountSchema, itemSchema, KiB, MiB, orderSchema, uploadSchema} from '../support/http.js';
import {branchingLists, branchingTree, nestedLists, treeWithKindLast} from '../support/branching.js';
import {
  bytesOf,
  bytewise,
  cutAt,
  endless,
  failing,
  inPieces,
  large,
  mount,
  pieces,
  stalled,
  trickle,
  whole,
  withEmptyChunks,
  type BodySpec,
  type ErrorPlace,
  type Mount,
  type Refusal,
} from './harness.js';

/** What must hold for one verdict. */
export interface Expectation {
  accepted: boolean;
  refusal?: Refusal;
  /** The value handed over, for a door that hands one over; compared when present. */
  value?: unknown;
  /** Not this value, whatever else (the Content-Length reproduction). */
  notValue?: unknown;
  /** Most bytes an in-process door may have pulled before its verdict. */
  consumedAtMost?: number;
  /** Most bytes an HTTP server may have read from the connection (head included) before its verdict. */
  readAtMost?: number;
  /** Nothing the request attached to the request stream is left behind. */
  nothingLeftBehind?: true;
  /** Text the answer to the client must not hold: nothing of the body is echoed. */
  answerOmits?: string;
  /** Where the first error is, for a door that tells (its code, its byte offset). */
  errorAt?: ErrorPlace;
}

interface Named {
  readonly name: string;
  /** The reproduction or the old test this case stands for. */
  readonly from: string;
}

/** Each body through its mount, in order, with what must hold for its verdict. */
export interface VerdictsCase extends Named {
  readonly kind: 'verdicts';
  readonly steps: ReadonlyArray<{readonly mount: Mount; readonly body: BodySpec; readonly expect: Expectation}>;
}

/** Every body of a group gets the verdict of the group's first body. */
export interface SameVerdictCase extends Named {
  readonly kind: 'same verdict';
  readonly mount: Mount;
  readonly groups: ReadonlyArray<readonly BodySpec[]>;
}

/** No body is accepted. */
export interface NeverAcceptedCase extends Named {
  readonly kind: 'never accepted';
  readonly mount: Mount;
  readonly bodies: readonly BodySpec[];
}

/** Mounting each value (as the schema, or as the options of a good schema) is a TypeError, at once. */
export interface MountErrorCase extends Named {
  readonly kind: 'mount error';
  readonly values: ReadonlyArray<{readonly shown: string; readonly value: unknown}>;
  /** What the values stand for: the schema (the default), or the door's options. */
  readonly as?: 'schema' | 'options';
  /** What the TypeError must say: the runtime's own (reading a property of null) says nothing of the mistake. */
  readonly says?: RegExp;
}

/** The bodies through one mount, one after another, get what a mount of their own gives each. */
export interface FreshCase extends Named {
  readonly kind: 'fresh';
  readonly shared: Mount;
  readonly bodies: readonly BodySpec[];
  /** One mount per body, made from its own copy of the schema. */
  readonly fresh: readonly Mount[];
}

/** Two bodies fed alternately, chunk by chunk, through one mount get what each gets alone through a mount of its own. */
export interface InterleavedCase extends Named {
  readonly kind: 'interleaved';
  readonly shared: Mount;
  readonly pairs: ReadonlyArray<readonly [BodySpec, BodySpec]>;
  /** Per pair, a mount of its own for each body. */
  readonly fresh: ReadonlyArray<readonly [Mount, Mount]>;
}

/** A refusal an HTTP case sends: the route, the body, and what it is refused for. */
export interface WireRefusal {
  readonly name: string;
  readonly mount: Mount;
  readonly body: BodySpec;
  readonly refusal: Refusal;
  /** Bytes of the body the server may read past the prefix before it answers (over the limit: the limit). */
  readonly allowed?: number;
  /** Milliseconds before which the answer cannot come (a timeout's bound). */
  readonly notBefore?: number;
}

/**
 * Over a raw connection: `early`, the answer comes after a bounded prefix and the server closes;
 * `closes`, the server closes after the answer; `keeps`, the same connection then carries the next
 * request; `follow-ups`, fetch's keep-alive pool gets an answer to each next request;
 * `pipelined`, the requests are written on one connection at once and no handler runs.
 */
export interface WireCase extends Named {
  readonly kind: 'wire';
  readonly scenario: 'early' | 'closes' | 'keeps' | 'follow-ups' | 'pipelined';
  /** Under every way the row's app answers errors, or the adapter's own only. */
  readonly styles: 'all' | 'default';
  readonly refusals: readonly WireRefusal[];
  /** Where the next requests go: a route taking `{"name": string}` and refusing a `forbidden` key. */
  readonly next: Mount;
}

export type Case = VerdictsCase | SameVerdictCase | NeverAcceptedCase | MountErrorCase | FreshCase | InterleavedCase | WireCase;

// ---------------------------------------------------------------------------------------------
// Documents

const validOrders = ['{"customer":"ada","items":[{"sku":"tea-01","quantity":2}]}', '{"customer":"zoë 😀 €","items":[{"sku":"ß-1","quantity":3}],"note":"ring twice"}'];
const invalidOrders = ['{"customer":"","items":[{"sku":"a","quantity":1}]}', '{"customer":"ada","items":[]}', '{"customer":"ada","items":[{"sku":5,"quantity":1}]}', '{"customer":"ada","items":[{"sku":"x","quantity":0}]}'];
const validAccounts = ['{"name":"x"}', '{"name":"zoë","role":"user","data":{"n":[1,2.5e3,true,null]}}'];
const invalidAccounts = ['{"name":"x","role":"admin"}', '{"role":"user"}', '{"name":"x","extra":1}', '{"name":5}'];
const validUploads = ['{"data":"ok"}', '{}'];
const invalidUploads = ['{"forbidden":1}', '{"data":5}', '{"data":"ok","forbidden":null}'];
const malformed = ['{"customer": "ada" "items": []}', '{"name" 1}', '[1,]', '{"name":"x"}x', '{"name":"x"', 'nul', '{"name":"x",}'];

const orders = mount(orderSchema);
const accounts = mount(accountSchema);
const uploads = mount(uploadSchema);
const anything = mount({});
const prices = mount({type: 'object', properties: {price: {type: 'number', exclusiveMaximum: 1}, ids: {type: 'array', uniqueItems: true}}});

const accepted = (text: string): Expectation => ({accepted: true, value: JSON.parse(text)});
const refused = (refusal: Refusal): Expectation => ({accepted: false, refusal});

/** A body as the WHATWG decoder reads it: what a door that accepts it must hand over. */
const decoded = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(bytes));

/** Every way of cutting `text` in two, and a byte per chunk. */
/** `text` whole and at every split point, refused for a limit at `errorAt` by a validator with `limits`. */
function limitedAt(text: string, limits: Limits, errorAt: ErrorPlace): VerdictsCase['steps'] {
  const bytes = bytesOf(text);
  const limited = mount({}, {limits});
  return [whole(bytes), ...everySplit(bytes)].map((body) => ({mount: limited, body, expect: {...refused('limit'), errorAt}}));
}

function everySplit(text: string | Uint8Array): BodySpec[] {
  const bytes = bytesOf(text);
  return [...Array.from({length: bytes.length - 1}, (_, index) => cutAt(bytes, index + 1)), bytewise(bytes)];
}

/** The body in one piece, announced, then chunked in one piece, then cut everywhere. */
function splitGroup(text: string | Uint8Array): BodySpec[] {
  return [whole(text), whole(text, {announced: false}), ...everySplit(text)];
}

const raw = (...parts: Array<string | number[]>): Uint8Array => Buffer.concat(parts.map((part) => (typeof part === 'string' ? bytesOf(part) : Uint8Array.from(part))));

/** Invalid UTF-8 inside a string (each becomes U+FFFD) and outside one (a syntax error). */
const invalidUtf8 = {
  inStrings: [raw('{"data":"a', [0xff], 'b"}'), raw('{"data":"', [0xe2, 0x82], '"}'), raw('{"data":"', [0xed, 0xa0, 0x80], '"}'), raw('{"data":"', [0xc0, 0xaf, 0xf8], '"}')],
  outside: [raw('{"data":"ok"}', [0xff]), raw([0xff], '{"data":"ok"}'), raw('{"data":"ok",', [0xc3], '"x":1}')],
  /**
   * A malformed sequence in a string, then the byte that makes the body bad, at offset 11 plus the
   * sequence's own bytes: each U+FFFD stands for 1, 2 and 3 bytes here, not for its own 3.
   */
  beforeAnError: [[0xff], [0xe2, 0x82], [0xf0, 0x90, 0x80], [0xff, 0xc0, 0xe0, 0x80]].map((sequence) => ({bytes: raw('{"data":"', sequence, '",x}'), offset: 11 + sequence.length})),
};
const trailingFF = raw('{"data":"ok"}', [0xff]);

// ---------------------------------------------------------------------------------------------
// Mount-time values and compiled validators

const compiledAccounts = mount(compile(accountSchema));
/** ajv's value options: a body is judged, and handed on, as they change it. */
const amendingAccounts = mount(
  compile(
    {type: 'object', properties: {name: {type: 'string'}, age: {type: 'integer'}, role: {enum: ['user', 'admin'], default: 'user'}}, required: ['name'], additionalProperties: false},
    {coerceTypes: true, useDefaults: true, removeAdditional: true},
  ),
);
const compiledOrders = mount(compile(orderSchema));

/**
 * Two subschemas that reach the same recursive one: a tree whose nodes are told apart by `kind`,
 * and a list of lists under two `anyOf` branches. A document that puts `children` before `kind`,
 * or a list of lists that fails at its bottom, doubles the applications at each level: 20 levels
 * took seconds and then the heap (the process died) before Limits.maxApplications.
 */
const branchingTreeMount = mount(branchingTree);
const branchingListsMount = mount(branchingLists);

/** Not schemas: a schema is JSON (an object or a boolean), and a validator is what `compile` makes. */
const notSchemas = [
  {shown: 'a function', value: () => true},
  {shown: 'a class instance', value: new (class Rules {
    readonly type = 'object';
  })()},
  {shown: "ajv's compiled ValidateFunction", value: new Ajv.default({strict: false}).compile(accountSchema)},
  {shown: 'a Map', value: new Map([['type', 'object']])},
];

// ---------------------------------------------------------------------------------------------
// Sequences and interleavings (test/isolation-http.test.ts, the Fastify and web hostile bodies)

const sequence: BodySpec[] = [
  whole('{"name":"x","role":"admin"}'),
  whole('{"role":"user","data":{"n":1,'),
  whole('{"name":"x","role":"admin"}'),
  pieces(['{"role":"user","da', 'ta":{"n":1,']),
  pieces(['{"name":"x",', '"role":"admin"}']),
  whole('{"name":"y","role":"user"}'),
  pieces(['{"name":"x","role":"user","data":{"k":1,', '"k":2}}']),
  whole(raw('{"name":"', [0xff], '"}')),
  large({prefix: '{"name":"', size: 200 * KiB, suffix: '"}', chunk: 16 * KiB}),
  pieces(['{"name":"x","ro', 'le":"user"}']),
  whole('{"name":"x","role":"admin"}'),
];

const fourBytes = (text: string): BodySpec => inPieces(bytesOf(text), 4);

const interleavedPairs: Array<readonly [BodySpec, BodySpec]> = [
  [fourBytes('{"name":"zoë","role":"user","data":{"n":1}}'), fourBytes('{"name":"x","role":"admin"}')],
  [fourBytes('{"role":"user","data":{"n":1,'), fourBytes('{"name":"x","role":"admin"}')],
  [fourBytes('{"name":"x","role":"admin"}'), fourBytes('{"name":"y","role":"user"}')],
  [fourBytes('{"name":"x","role":"user","role":"user"}'), fourBytes('{"name":"y"}')],
];

// ---------------------------------------------------------------------------------------------
// Bytes on the wire

/** Big enough that a refusal comes while most of it is still unsent or unread. */
const BIG = MiB;
const items = mount(itemSchema, {limit: 64 * KiB});
const itemUploads = mount(itemSchema, {bodyRoom: 8 * MiB});

/** 20 bytes that gunzip to nothing. */
const EMPTY_MEMBER = gzipSync(Buffer.alloc(0));
const GZIP_OPENING = gzipSync('{"name": "');
const gzipped = {headers: {'content-encoding': 'gzip'}};

const GZIP_LIMIT = 64 * KiB;
/** What may be read past the refusing chunk before the socket is paused: a read or two of 64 KiB, and the head. */
const READ_AHEAD = 192 * KiB;
/** One member of 4 MiB of digits: ~4 KiB sent for each 4 MiB decoded. */
const bombMember = gzipSync(Buffer.alloc(4 * MiB, '0'));

const TIMEOUT = {idle: 200, total: 600};
/** Each bound apart, the other far off: on a loaded machine a trickle's pause may outlast a short idle. */
const timedIdle = mount(itemSchema, {timeout: {idle: TIMEOUT.idle, total: 10 * TIMEOUT.total}});
const timedTotal = mount(itemSchema, {timeout: {idle: 10 * TIMEOUT.idle, total: TIMEOUT.total}});

/** Refusals whose rest of the body is never read. */
const unreadRefusals: WireRefusal[] = [
  {name: '413 announced by Content-Length', mount: items, refusal: 'limit', body: large({prefix: '{"name": "', size: BIG, suffix: '"}', announced: true})},
  {name: '413 once the limit is crossed', mount: items, refusal: 'limit', body: large({prefix: '{"name": "', size: BIG, suffix: '"}', chunk: 16 * KiB})},
  {name: '415 for a non-UTF-8 charset', mount: items, refusal: 'media', body: large({prefix: '{"name": "', size: BIG, suffix: '"}', headers: {'content-type': 'application/json; charset=latin1'}})},
  {name: 'a schema violation midway', mount: itemUploads, refusal: 'validation', body: large({prefix: '{"forbidden": "', size: BIG, suffix: '"}', announced: true})},
  {name: 'a schema violation midway, chunked', mount: itemUploads, refusal: 'validation', body: large({prefix: '{"forbidden": "', size: BIG, suffix: '"}', chunk: 16 * KiB})},
  {name: 'malformed midway', mount: itemUploads, refusal: 'syntax', body: large({prefix: '{"name" "', size: BIG, suffix: '"}', announced: true})},
  {name: 'malformed midway, chunked', mount: itemUploads, refusal: 'syntax', body: large({prefix: '{"name" "', size: BIG, suffix: '"}', chunk: 16 * KiB})},
  {name: '413 for empty gzip members past the limit', mount: items, refusal: 'limit', body: large({prefix: GZIP_OPENING, size: BIG, filler: Buffer.concat(Array.from({length: 800}, () => EMPTY_MEMBER)), ...gzipped})},
  {name: '413 for a gzip bomb', mount: items, refusal: 'limit', body: large({prefix: GZIP_OPENING, size: 8 * MiB, filler: bombMember, ...gzipped})},
  // Express's final handler reads the rest of a refused body before it answers: the stalled sender resumes, so that it is answered.
  {name: `408 stalled past idle (${TIMEOUT.idle} ms)`, mount: timedIdle, refusal: 'timeout', body: stalled('{"name": "', {after: 3 * TIMEOUT.idle, rest: 'x"}'}), notBefore: TIMEOUT.idle},
  {name: `408 trickling past total (${TIMEOUT.total} ms)`, mount: timedTotal, refusal: 'timeout', body: trickle('{"name": "', 'x', 40, (2 * TIMEOUT.total) / 40, '"}'), notBefore: TIMEOUT.total},
];

/** A media type no JSON door takes: refused from the head. */
const xml = {headers: {'content-type': 'application/xml'}};

const unreadMediaType: WireRefusal = {name: '415 for another media type', mount: items, refusal: 'media', body: large({prefix: '{"name": "', size: BIG, suffix: '"}', announced: true, ...xml})};

/** A schema violation in a body read whole, after which the connection carries the next request. */
const readViolation: WireRefusal = {name: 'a schema violation read whole', mount: items, refusal: 'validation', body: whole('{"name": 1}')};

/** Other refusals of a body read whole (or discarded, being small), after which the connection carries the next request. */
const readRefusals: WireRefusal[] = [
  {name: 'malformed, read whole', mount: items, refusal: 'syntax', body: whole('{"name" 1}')},
  {name: '415 for another media type, a small body discarded', mount: items, refusal: 'media', body: large({prefix: '{"name": "', size: 4 * KiB, suffix: '"}', announced: true, ...xml})},
  {name: '413 for a small body announced over the limit, discarded', mount: mount(itemSchema, {limit: 64}), refusal: 'limit', body: whole(`{"name": "${'x'.repeat(100)}"}`)},
];

const FIFTY_MB = 50 * MiB;
const forbiddenUploads = mount(uploadSchema, {bodyRoom: 100 * MiB});
const shortNames = mount({type: 'object', properties: {name: {type: 'string', maxLength: 64}}}, {bodyRoom: 100 * MiB});
const limited = mount({}, {limit: 100 * KiB});
const plain = mount({}, {bodyRoom: 100 * MiB});

/** The early-refusal blocks of test/express, koa, fastify and web.test.ts: a 50 MB upload. */
const earlyRefusals: WireRefusal[] = [true, false].flatMap((announced) => {
  const framing = announced ? 'with Content-Length' : 'chunked';
  return [
    {name: `its first key forbidden, ${framing}`, mount: forbiddenUploads, refusal: 'validation' as const, body: large({prefix: '{"forbidden": "', size: FIFTY_MB, suffix: '"}', announced})},
    {name: `malformed at its 8th byte, ${framing}`, mount: plain, refusal: 'syntax' as const, body: large({prefix: '{"data" "', size: FIFTY_MB, suffix: '"}', announced})},
    {name: `over the limit, ${framing}`, mount: limited, refusal: 'limit' as const, body: large({prefix: '{"data": "', size: FIFTY_MB, suffix: '"}', announced}), allowed: announced ? 0 : 100 * KiB},
  ];
});

// ---------------------------------------------------------------------------------------------


export const CASES: readonly Case[] = [
  {
    kind: 'verdicts',
    name: 'valid documents are accepted with the value JSON.parse gives',
    from: 'the express, koa, fastify, web, stream and rxjs tests of an accepted body',
    steps: [
      ...validOrders.map((text) => ({mount: orders, body: whole(text), expect: accepted(text)})),
      ...validAccounts.map((text) => ({mount: accounts, body: pieces([text.slice(0, 5), text.slice(5)]), expect: accepted(text)})),
      ...validUploads.map((text) => ({mount: uploads, body: whole(text), expect: accepted(text)})),
      {mount: anything, body: whole(' \r\n\t{"constructor": {"admin": true}, "n": [1, 2.5e3, -0.5, 1e-300], "s": "\\u0000\\ud83d\\ude00"} \n'), expect: {accepted: true}},
    ],
  },
  {
    kind: 'verdicts',
    name: 'invalid documents are refused as schema violations',
    from: 'the per-door tests of a schema violation',
    steps: [
      ...invalidOrders.map((text) => ({mount: orders, body: whole(text), expect: refused('validation')})),
      ...invalidAccounts.map((text) => ({mount: accounts, body: pieces([text.slice(0, 3), text.slice(3)]), expect: refused('validation')})),
      ...invalidUploads.map((text) => ({mount: uploads, body: whole(text), expect: refused('validation')})),
    ],
  },
  {
    kind: 'verdicts',
    name: 'malformed documents are refused as syntax errors',
    from: 'the per-door tests of malformed JSON',
    steps: malformed.flatMap((text) => [
      {mount: anything, body: whole(text), expect: refused('syntax')},
      {mount: anything, body: bytewise(text), expect: refused('syntax')},
    ]),
  },
  {
    kind: 'verdicts',
    name: 'a compiled validator is judged as its schema',
    from: 'issue 22, bypass 1: compile(schema) given to Express, Koa, Fastify, stream or rxjs validated nothing',
    steps: [
      {mount: compiledAccounts, body: whole('{"name":"x","role":"admin"}'), expect: refused('validation')},
      {mount: compiledAccounts, body: pieces(['{"role":', '"user"}']), expect: refused('validation')},
      {mount: compiledAccounts, body: whole('{"name":"x","role":"user"}'), expect: accepted('{"name":"x","role":"user"}')},
      {mount: compiledOrders, body: whole(invalidOrders[3]!), expect: refused('validation')},
      {mount: compiledOrders, body: whole(validOrders[0]!), expect: accepted(validOrders[0]!)},
    ],
  },
  {
    kind: 'verdicts',
    name: 'under the value options the value handed on is the value judged',
    from: 'a door that took the value from JSON.parse of the text handed "5" on where the verdict was about 5',
    steps: [
      {mount: amendingAccounts, body: whole('{"name":"ada","age":"5","extra":1}'), expect: accepted('{"name":"ada","age":5,"role":"user"}')},
      {mount: amendingAccounts, body: pieces(['{"name":"ada",', '"age":"5","ex', 'tra":1}']), expect: accepted('{"name":"ada","age":5,"role":"user"}')},
      {mount: amendingAccounts, body: bytewise('{"name":"ada","age":"5"}'), expect: accepted('{"name":"ada","age":5,"role":"user"}')},
      {mount: amendingAccounts, body: pieces(['{"name":"ada",', '"age":"five"}']), expect: refused('validation')},
    ],
  },
  {
    kind: 'verdicts',
    name: 'a number JSON.parse rounds is judged as the double handed on',
    from: 'an outside attack: {"price":0.99999999999999999} passed exclusiveMaximum: 1 as written and reached the handler as 1, where Fastify answers 400',
    steps: [
      {mount: prices, body: whole('{"price":0.99999999999999999}'), expect: refused('validation')},
      {mount: prices, body: bytewise('{"price":0.99999999999999999}'), expect: refused('validation')},
      {mount: prices, body: whole('{"price":0.9999999999999999}'), expect: accepted('{"price":0.9999999999999999}')},
      {mount: prices, body: whole('{"price":0.5,"ids":[1,1.00000000000000001]}'), expect: refused('validation')},
      {mount: prices, body: pieces(['{"price":0.5,"ids":[1,1.000000', '00000000001]}']), expect: refused('validation')},
    ],
  },
  {
    kind: 'mount error',
    name: 'a value that is neither a schema nor a validator is a TypeError when mounted',
    from: 'issue 22, what must hold 1: anything else is a TypeError at mount time, not a schema of no keywords',
    values: notSchemas,
  },
  {
    kind: 'mount error',
    name: 'options that are not an object are a TypeError when mounted',
    from: "the brief: an API used the wrong way gets a clear, typed error; null threw the runtime's TypeError, a number or a string was read as no options",
    as: 'options',
    says: /options must be an object/,
    values: [
      {shown: 'a number', value: 5},
      {shown: 'a string', value: 'strict'},
      {shown: 'a boolean', value: true},
      {shown: 'an array', value: []},
    ],
  },
  {
    kind: 'mount error',
    name: 'null options are a TypeError when mounted',
    from: "the brief: an API used the wrong way gets a clear, typed error; destructured, null threw the runtime's own TypeError",
    as: 'options',
    says: /options must be an object, not null/,
    values: [{shown: 'null', value: null}],
  },
  {
    kind: 'mount error',
    name: 'an invalidStatus other than 400 or 422 is a TypeError when mounted',
    from: 'an outside attack: invalidStatus 200 answered a schema violation with 200 through an error handler that sends err.status, and "x" failed only at the first refusal',
    as: 'options',
    says: /option invalidStatus: /,
    values: [
      {shown: '200', value: {invalidStatus: 200}},
      {shown: '302', value: {invalidStatus: 302}},
      {shown: '500', value: {invalidStatus: 500}},
      {shown: 'a string', value: {invalidStatus: '422'}},
    ],
  },
  {
    kind: 'mount error',
    name: 'a type option that is not a media type, a list of them or a function is a TypeError when mounted',
    from: "an outside attack: type 5 threw the runtime's own TypeError, naming no option",
    as: 'options',
    says: /option type: /,
    values: [
      {shown: 'a number', value: {type: 5}},
      {shown: 'a list with a number', value: {type: ['application/json', 5]}},
      {shown: 'an object', value: {type: {json: true}}},
    ],
  },
  {
    kind: 'same verdict',
    name: 'every split point gives the verdict of the whole',
    from: "web.test.ts 'a body cut in two at every byte', text-stream.test.ts 'deltas cut anywhere', the slow uploads of express, koa and fastify.test.ts",
    mount: mount(orderSchema, {scalars: true}),
    groups: [
      '{"customer":"ada","items":[{"sku":"t","quantity":2}]}',
      '{"customer":"\\u00e9\\ud83d\\ude00\\"","items":[]}',
      '\uFEFF{"customer":"a","items":[]}',
      '{"customer":"a","items":[],"customer":"b"}',
    ].map(splitGroup),
  },
  {
    kind: 'same verdict',
    name: 'a UTF-8 sequence split across chunks is decoded whole',
    from: "koa.test.ts 'a slow upload ... unicode split across them', rxjs.test.ts 'a multibyte character split across chunks'",
    mount: mount(orderSchema),
    groups: [splitGroup('{"customer":"zoë😀€","items":[]}'), splitGroup('{"customer":"é","items":[{"sku":"𝄞","quantity":-1}]}')],
  },
  {
    kind: 'verdicts',
    name: 'invalid UTF-8 is read as the WHATWG decoder reads it, wherever it is cut',
    from: "docs/security.md's invalid UTF-8 row; fastify.test.ts 'a chunked body with a trailing 0xFF byte'",
    steps: [
      ...invalidUtf8.inStrings.flatMap((bytes) => [whole(bytes), ...everySplit(bytes)].map((body) => ({mount: uploads, body, expect: {accepted: true, value: decoded(bytes)}}))),
      ...invalidUtf8.outside.flatMap((bytes) => [whole(bytes), ...everySplit(bytes)].map((body) => ({mount: uploads, body, expect: refused('syntax')}))),
      // A byte that is no JSON after the document: refused where it is.
      ...[whole(trailingFF), pieces([trailingFF.subarray(0, 13), trailingFF.subarray(13)])].map((body) => ({mount: uploads, body, expect: {...refused('syntax'), errorAt: {code: 'syntax.trailing', offset: 13}}})),
      // Where the body goes bad after one: the offset of the bytes as sent.
      ...invalidUtf8.beforeAnError.flatMap(({bytes, offset}) =>
        [whole(bytes), ...everySplit(bytes)].map((body) => ({mount: uploads, body, expect: {...refused('syntax'), errorAt: {code: 'syntax.unexpected', offset}}})),
      ),
    ],
  },
  {
    kind: 'same verdict',
    name: 'empty chunks anywhere change nothing',
    from: "the outside attack on byte offsets: an empty write between a surrogate pair's halves moved every later offset by 2",
    mount: mount(orderSchema, {scalars: true}),
    groups: [
      '{"customer":"zoë😀€","items":[{"sku":"𝄞","quantity":1}]}',
      '{"customer":"😀","items":[{"sku":"𝄞","quantity":-1}]}',
      '{"customer":"😀😀","items":[{"sku":"€","quantity":1}]} x',
      '\uFEFF{"customer":"\\ud83d\\ude00","items":[{"sku":"a","quantity":1}]}',
    ]
      .map((text): readonly BodySpec[] => [whole(text), withEmptyChunks(text)])
      .concat(invalidUtf8.beforeAnError.map(({bytes}) => [whole(bytes), withEmptyChunks(bytes)])),
  },
  {
    kind: 'never accepted',
    name: 'no prefix of a document is accepted',
    from: 'truncation at every byte; stream.test.ts and text-stream.test.ts, a document cut short',
    mount: accounts,
    bodies: [validAccounts[1]!, '{"name":"x","role":"user","data":{"deep":[{"a":"é"}]}}'].flatMap((text) => {
      const bytes = bytesOf(text);
      return Array.from({length: bytes.length - 1}, (_, index) => whole(bytes.subarray(0, index + 1)));
    }),
  },
  {
    kind: 'verdicts',
    name: 'an empty body is refused',
    from: "web.test.ts 'a request without a body is 400', fastify.test.ts's empty body",
    steps: [{mount: anything, body: pieces([]), expect: {accepted: false}}, {mount: anything, body: whole('  \r\n '), expect: {accepted: false}}],
  },
  {
    kind: 'verdicts',
    name: 'a repeated key is refused as a syntax error',
    from: "express, koa and fastify.test.ts 'a repeated key is 400'",
    steps: [
      {mount: anything, body: whole('{"a":1,"a":2}'), expect: refused('syntax')},
      {mount: accounts, body: whole('{"name":"x","role":"user","role":"user"}'), expect: refused('syntax')},
      {mount: accounts, body: pieces(['{"name":"x","role":"user","r', '\\u006fle":"user"}']), expect: refused('syntax')},
      {mount: accounts, body: bytewise('{"name":"x","data":{"k":1,"k":1}}'), expect: refused('syntax')},
    ],
  },
  {
    kind: 'verdicts',
    name: 'a number past maxNumberLength is refused there, before a malformed character further on',
    from: 'the outside attack on byte offsets: whole, the error was the later syntax error; cut, the limit',
    steps: limitedAt('[-0.5ex]', {maxNumberLength: 3}, {code: 'limit.number', offset: 4}),
  },
  {
    kind: 'verdicts',
    name: 'nesting deeper than maxDepth, strings and keys longer than their limits are refused',
    from: "the 'too deep or too many keys: 413' tests of express, koa, fastify and web.test.ts",
    steps: [
      {mount: mount({}, {limits: {maxDepth: 4}}), body: whole('[[[[[[[[1]]]]]]]]'), expect: refused('limit')},
      {mount: mount({}, {limits: {maxDepth: 4}}), body: bytewise('{"a":{"a":{"a":{"a":{"a":1}}}}}'), expect: refused('limit')},
      {mount: mount({}, {limits: {maxStringLength: 10, maxKeyLength: 10, maxProperties: 5}}), body: whole(`{"a":"${'x'.repeat(100)}"}`), expect: refused('limit')},
      {mount: mount({}, {limits: {maxStringLength: 10, maxKeyLength: 10, maxProperties: 5}}), body: whole(`{"${'k'.repeat(100)}":1}`), expect: refused('limit')},
      {mount: mount({}, {limits: {maxStringLength: 10, maxKeyLength: 10, maxProperties: 5}}), body: whole('{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}'), expect: refused('limit')},
      // A bound that falls inside a surrogate pair is at the character (offset 9 for the emoji), at every split point.
      ...limitedAt('{"a":"xxx😀"}', {maxStringLength: 4}, {code: 'limit.string', offset: 9}),
      ...limitedAt('{"xxx😀":1}', {maxKeyLength: 4}, {code: 'limit.key', offset: 5}),
      // uniqueItems keeps a fingerprint per item: past maxUniqueItems, a limit (413), not the heap.
      {mount: mount({type: 'array', uniqueItems: true}, {limits: {maxUniqueItems: 4}}), body: whole('[1,2,3,4,5,6]'), expect: refused('limit')},
      {mount: mount({type: 'array', uniqueItems: true}, {limits: {maxUniqueItems: 4}}), body: bytewise('[1,2,3,4,5,6]'), expect: refused('limit')},
    ],
  },
  {
    kind: 'verdicts',
    name: 'bombs within the byte limit are refused by the default validator limits, and the door serves on',
    from: "fastify.test.ts 'a body of 100,000 nested arrays is refused, and the server stays up'",
    steps: [
      {mount: mount({}, {bodyRoom: 4 * MiB}), body: pieces(['['.repeat(50_000), '['.repeat(50_000)]), expect: refused('limit')},
      {mount: mount({}, {bodyRoom: 4 * MiB}), body: whole('{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)), expect: refused('limit')},
      {mount: mount({}, {bodyRoom: 4 * MiB}), body: whole(`{"${'k'.repeat(70_000)}":1}`), expect: refused('limit')},
      {mount: mount({}, {bodyRoom: 4 * MiB}), body: whole('{"fine":true}'), expect: accepted('{"fine":true}')},
      // Applications that double at each level of the document: refused past maxApplications.
      {mount: branchingTreeMount, body: whole(treeWithKindLast(24)), expect: refused('limit')},
      {mount: branchingTreeMount, body: bytewise(treeWithKindLast(24)), expect: refused('limit')},
      {mount: branchingListsMount, body: whole(nestedLists(40)), expect: refused('limit')},
      {mount: branchingTreeMount, body: whole(treeWithKindLast(3)), expect: accepted(treeWithKindLast(3))},
    ],
  },
  {
    kind: 'verdicts',
    name: 'a body over the byte limit is refused',
    from: "web.test.ts '413 at the chunk holding the first byte past the limit', the 'over limit: 413' tests",
    steps: [
      {mount: mount({}, {limit: 55}), body: pieces(Array.from({length: 22}, (_, index) => `{"data": "${'x'.repeat(200)}"}`.slice(index * 10, index * 10 + 10))), expect: refused('limit')},
      {mount: mount({}, {limit: 55}), body: whole(`{"data": "${'x'.repeat(200)}"}`), expect: refused('limit')},
      {mount: mount({}, {limit: 55}), body: whole(`{"data": "${'x'.repeat(40)}"}`), expect: accepted(`{"data": "${'x'.repeat(40)}"}`)},
    ],
  },
  {
    kind: 'verdicts',
    name: 'a body announced over the limit is refused before a byte of it is read',
    from: "web.test.ts 'Content-Length over limit: 413 before a byte is pulled'; the 'over limit with Content-Length' tests",
    steps: [{mount: limited, body: large({prefix: '{"data": "', size: FIFTY_MB, suffix: '"}', announced: true}), expect: {...refused('limit'), consumedAtMost: 0, readAtMost: 64 * KiB + KiB}}],
  },
  {
    kind: 'verdicts',
    name: 'a bad byte before the limit in the chunk that crosses it is the answer',
    from: "web.test.ts 'a bad byte before the limit in the chunk that crosses it is the answer'",
    steps: [{mount: mount(uploadSchema, {limit: 40}), body: pieces(['{"data": "xx', 'x", "forbidden": 1, "more": "yyyyyyyyyyyyyyyyyyyyy"}']), expect: refused('validation')}],
  },
  {
    kind: 'verdicts',
    name: 'endless whitespace is refused by the byte limit',
    from: 'issue 22, 7: a source that streams whitespace forever never resolved',
    steps: [{mount: mount({}, {limit: 64 * KiB}), body: endless('', ' ', 16 * MiB), expect: {...refused('limit'), consumedAtMost: 64 * KiB + 8 * KiB, readAtMost: 64 * KiB + READ_AHEAD}}],
  },
  {
    kind: 'verdicts',
    name: 'a gzip bomb is refused by the limit, having read a few KiB',
    from: "limits-http.test.ts 'a gzip bomb (8 MiB sent, 8 GiB inside)'; web.test.ts 'a decompression bomb is stopped by limit'",
    steps: [
      {
        mount: mount(itemSchema, {limit: GZIP_LIMIT}),
        body: large({prefix: GZIP_OPENING, size: 8 * MiB, filler: bombMember, ...gzipped}),
        expect: {...refused('limit'), consumedAtMost: 64 * KiB, readAtMost: READ_AHEAD},
      },
      {
        mount: mount(itemSchema, {limit: GZIP_LIMIT}),
        // Compressed fast and loosely, so that the compressed body is larger than a decoder buffers.
        body: inPieces(gzipSync(`{"name": "${'0'.repeat(16 * MiB)}"}`, {level: 1}), 256, {...gzipped, shown: 'one gzip member of 16 MiB inside, in 256-byte chunks'}),
        expect: {...refused('limit'), consumedAtMost: 256 * KiB, readAtMost: 256 * KiB + READ_AHEAD},
      },
    ],
  },
  {
    kind: 'verdicts',
    name: 'empty gzip members are refused once the bytes sent pass the limit',
    from: "limits-http.test.ts 'a stream of empty gzip members'; web.test.ts 'limit bounds the compressed bytes read too'",
    steps: [false, true].map((announced) => ({
      mount: mount(itemSchema, {limit: GZIP_LIMIT}),
      body: large({prefix: GZIP_OPENING, size: 8 * MiB, filler: Buffer.concat(Array.from({length: 800}, () => EMPTY_MEMBER)), announced, ...gzipped}),
      expect: {...refused('limit'), consumedAtMost: GZIP_LIMIT + GZIP_OPENING.length + EMPTY_MEMBER.length * 800, readAtMost: GZIP_LIMIT + READ_AHEAD},
    })),
  },
  {
    kind: 'verdicts',
    name: 'a compressed body within the limit is decoded and judged',
    from: "limits-http.test.ts 'a compressed body within the limit both ways is read and decoded'",
    steps: [
      {mount: mount(itemSchema, {limit: GZIP_LIMIT}), body: whole(gzipSync(`{"name":"${'x'.repeat(40 * KiB)}"}`), {...gzipped, announced: false}), expect: accepted(`{"name":"${'x'.repeat(40 * KiB)}"}`)},
      {mount: mount(itemSchema, {limit: GZIP_LIMIT}), body: whole(gzipSync('{"name":"x","forbidden":1}'), gzipped), expect: refused('validation')},
    ],
  },
  {
    kind: 'verdicts',
    name: 'a Content-Encoding named like an Object.prototype member is 415, never 500',
    from: 'issue 22, 9: Content-Encoding: constructor or __proto__ was a 500',
    steps: ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'].map((encoding) => ({
      mount: accounts,
      body: whole('{"name":"x"}', {headers: {'content-encoding': encoding}, shown: `{"name":"x"} with Content-Encoding: ${encoding}`}),
      expect: refused('media'),
    })),
  },
  {
    kind: 'verdicts',
    name: 'a sender that stalls is refused at the idle timeout',
    from: "timeout.test.ts 'stalled past idle'; web.test.ts 'timeout: a body that stalls'; issue 22, 7",
    steps: [{mount: mount({}, {timeout: {idle: 300, total: 5000}}), body: stalled('{"name": '), expect: refused('timeout')}],
  },
  {
    kind: 'verdicts',
    name: 'a sender that trickles past the total timeout is refused',
    from: "timeout.test.ts 'trickling a byte per 50 ms past total'; web.test.ts 'or takes too long'",
    steps: [{mount: mount({}, {timeout: {idle: 1000, total: 400}}), body: trickle('[', '1,', 50, 40, '1]'), expect: refused('timeout')}],
  },
  {
    kind: 'verdicts',
    name: 'a body trickled within both timeouts is accepted',
    from: "timeout.test.ts 'a body trickled ..., never pausing for idle, within total: accepted'",
    // Longer than idle in all (2.5 s against 2 s), never pausing for it. The idle bound is forty
    // pauses long, so a loaded machine's stalls between two writes do not reach it.
    steps: [{mount: mount({}, {timeout: {idle: 2000, total: 10000}}), body: trickle('[', '1,', 50, 50, '1]'), expect: accepted(`[${'1,'.repeat(50)}1]`)}],
  },
  {
    kind: 'verdicts',
    name: 'a sender that goes away mid-body is refused, leaves nothing behind, and the next body is judged',
    from: "the 'aborted upload' tests of express, koa, fastify and web.test.ts; stream.test.ts 'destroyed with an error'",
    steps: [
      {mount: orders, body: failing(['{"customer": "ada", "items": ['], {announced: true}), expect: {...refused('aborted'), nothingLeftBehind: true}},
      {mount: orders, body: failing(['{"customer": "ad', 'a", "items": [']), expect: {...refused('aborted'), nothingLeftBehind: true}},
      {mount: orders, body: whole(validOrders[0]!), expect: accepted(validOrders[0]!)},
    ],
  },
  {
    kind: 'verdicts',
    name: 'a long body made invalid early (a forbidden first key, a string past its maxLength) is refused having read a bounded prefix',
    from: "the early-rejection blocks of express, koa, fastify and web.test.ts; web.test.ts 'nothing more is pulled'; stream.test.ts 'as soon as it is certain'; text-stream.test.ts 'without asking for another delta'",
    // In 1000-byte chunks: a door that pipes may have taken one more chunk than the one deciding.
    steps: [true, false].flatMap((announced) => [
      {
        mount: forbiddenUploads,
        body: large({prefix: '{"forbidden": "', size: FIFTY_MB, suffix: '"}', chunk: 1000, announced}),
        expect: {...refused('validation'), consumedAtMost: 15 + 2 * 1000, readAtMost: 2 * 64 * KiB + KiB},
      },
      // Decided once the string is certainly past maxLength: in the chunk that takes it past twice the limit.
      {
        mount: shortNames,
        body: large({prefix: '{"name": "', size: FIFTY_MB, suffix: '"}', chunk: 1000, announced}),
        expect: {...refused('validation'), consumedAtMost: 10 + 2 * 1000, readAtMost: 2 * 64 * KiB + KiB},
      },
    ]),
  },
  {
    kind: 'verdicts',
    name: 'a key of 5,000 characters is never echoed in the answer',
    from: "issue 22, 13: the problem+json pointer was never cut; express and koa.test.ts 'the body not echoed'",
    steps: [
      {mount: accounts, body: whole(`{"name":"x","${'k'.repeat(5000)}":1}`), expect: {...refused('validation'), answerOmits: 'k'.repeat(300)}},
      {mount: mount({type: 'object', propertyNames: {maxLength: 8}}), body: whole(`{"${'k'.repeat(5000)}":1}`), expect: {...refused('validation'), answerOmits: 'k'.repeat(300)}},
      {mount: accounts, body: whole(`{"name":"x","role":"${'SECRET'.repeat(100)}"}`), expect: {...refused('validation'), answerOmits: 'SECRET'.repeat(40)}},
    ],
  },
  {
    kind: 'verdicts',
    name: 'a body longer than its Content-Length is not judged by its first chunk alone',
    from: 'issue 22, bypass 4: validateRequest trusted Content-Length and resolved -5',
    steps: [
      {
        mount: mount({type: 'number', minimum: 0}, {scalars: true}),
        body: pieces(['-', '5'], {headers: {'content-length': '1'}, announced: true, shown: '"-" then "5" with Content-Length: 1'}),
        expect: {accepted: false, notValue: -5},
      },
    ],
  },
  {
    kind: 'fresh',
    name: 'sequences of bodies through one mount get the verdicts of fresh ones',
    from: "isolation-http.test.ts 'the admin body is refused with 422 after a body cut off inside a nested member'; fastify.test.ts and web.test.ts 'a truncated nested body, then an invalid one'",
    shared: accounts,
    bodies: sequence,
    fresh: sequence.map(() => mount(structuredClone(accountSchema))),
  },
  {
    kind: 'fresh',
    name: 'sequences of bodies through one compiled validator get the verdicts of fresh ones',
    from: "web.test.ts 'hostile bodies through one compiled validator'",
    shared: compiledAccounts,
    bodies: sequence,
    fresh: sequence.map(() => mount(compile(structuredClone(accountSchema)))),
  },
  {
    kind: 'interleaved',
    name: 'two bodies fed alternately through one mount get the verdicts each gets alone',
    from: 'a shared validator across interleaved requests',
    shared: accounts,
    pairs: interleavedPairs,
    fresh: interleavedPairs.map(() => [mount(structuredClone(accountSchema)), mount(structuredClone(accountSchema))] as const),
  },
  {
    kind: 'interleaved',
    name: 'two bodies fed alternately through one compiled validator get the verdicts each gets alone',
    from: 'issue 22: "compile once, share everywhere"',
    shared: compiledAccounts,
    pairs: interleavedPairs,
    fresh: interleavedPairs.map(() => [mount(compile(structuredClone(accountSchema))), mount(compile(structuredClone(accountSchema)))] as const),
  },
  {
    kind: 'verdicts',
    name: 'a media type the route schema.body.content does not list is 415',
    from: 'issue 22, bypass 2: application/x+json reached the handler unchecked',
    steps: [
      {mount: mount(accountSchema, {mediaType: 'application/json'}), body: whole('{"name":"x","role":"admin","x":1}', {headers: {'content-type': 'application/x+json'}}), expect: refused('media')},
      {mount: mount(accountSchema, {mediaType: 'application/json'}), body: whole('{"name":"x","role":"admin"}'), expect: refused('validation')},
      {mount: mount(accountSchema, {mediaType: 'application/json'}), body: whole('{"name":"x"}'), expect: accepted('{"name":"x"}')},
    ],
  },
  {
    kind: 'verdicts',
    name: 'a body a preValidation hook changed is judged as changed',
    from: 'issue 22, bypass 3: a preValidation hook adding role: "admin" gave 200',
    steps: [
      // As the hook: the parsed object itself changed.
      {mount: mount(accountSchema, {changeBody: (body) => Object.assign(body as object, {role: 'admin'})}), body: whole('{"name":"x"}'), expect: refused('validation')},
      {mount: mount(accountSchema, {changeBody: (body) => ({...(body as object), role: 'admin'})}), body: whole('{"name":"x"}'), expect: refused('validation')},
      {mount: mount(accountSchema, {changeBody: (body) => Object.assign(body as object, {role: 'user'})}), body: whole('{"name":"x"}'), expect: accepted('{"name":"x","role":"user"}')},
    ],
  },
  {
    kind: 'verdicts',
    name: "a body onProtoPoisoning 'remove' stripped is judged as stripped",
    from: "issue 22, bypass 3: {\"a\":1,\"__proto__\":{}} against minProperties: 2 gave 200 {\"a\":1}",
    steps: [{mount: mount({type: 'object', minProperties: 2}, {protoPoisoning: 'remove'}), body: whole('{"a":1,"__proto__":{}}'), expect: refused('validation')}],
  },
  {
    kind: 'wire',
    name: 'early refusal over the wire: answered after a bounded prefix, the connection closed',
    from: "the 'early rejection over a raw socket' blocks of express, koa, fastify and web.test.ts",
    scenario: 'early',
    styles: 'default',
    refusals: earlyRefusals,
    next: items,
  },
  {
    kind: 'wire',
    name: 'a refusal that leaves the body unread closes the connection, whoever answers it',
    from: "keepalive.test.ts's raw-socket tests; limits-http.test.ts's; timeout.test.ts's; issue 22, where the tests can't see: Koa's onerror drops every header",
    scenario: 'closes',
    styles: 'all',
    refusals: unreadRefusals,
    next: items,
  },
  {
    kind: 'wire',
    name: 'a body of a media type the route does not take is refused unread, and the connection closed',
    from: "keepalive.test.ts '415 for another media type'",
    scenario: 'closes',
    styles: 'all',
    refusals: [unreadMediaType],
    next: items,
  },
  {
    kind: 'wire',
    name: 'a schema violation in a body read whole keeps the connection for the next request',
    from: "web.test.ts 'a refusal of a body read whole keeps the connection'; isolation-http.test.ts's one keep-alive connection",
    scenario: 'keeps',
    styles: 'all',
    refusals: [readViolation],
    next: items,
  },
  {
    kind: 'wire',
    name: 'a refusal of a body read whole or discarded keeps the connection for the next request',
    from: "keepalive.test.ts '415 for another media type, a small body'",
    scenario: 'keeps',
    styles: 'all',
    refusals: readRefusals,
    next: items,
  },
  {
    kind: 'wire',
    name: 'requests written at once on one connection: a cut-off body carries no state into the next, and no handler runs',
    from: "fastify.test.ts 'a truncated nested body, then an invalid one on the same connection'",
    scenario: 'pipelined',
    styles: 'default',
    refusals: [
      {name: 'cut off inside a nested member', mount: accounts, refusal: 'syntax', body: whole('{"role":"user","data":{"n":1,')},
      {name: 'a role the schema refuses', mount: accounts, refusal: 'validation', body: whole('{"name":"x","role":"admin"}')},
    ],
    next: items,
  },
  {
    kind: 'wire',
    name: "after a refusal, the same fetch client's next requests each get their own answer",
    from: "keepalive.test.ts, limits-http.test.ts and timeout.test.ts's fetch clients; fastify.test.ts and web.test.ts 'after an early refusal'",
    scenario: 'follow-ups',
    styles: 'all',
    refusals: [...unreadRefusals, unreadMediaType, readViolation, ...readRefusals],
    next: items,
  },
];
