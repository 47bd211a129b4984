// Broken schemas fail in compile() with a SchemaError that names the location and the reason.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {ArgumentError, ArgumentRangeError, SchemaError, compile} from '../src/index.js';
import {ndjsonValidator, WorkerOptionsError} from '../adapters/stream.js';
import type {CompileOptions} from '../src/types.js';

function schemaError(schema: unknown, options: CompileOptions = {}): SchemaError {
  try {
    compile(schema, options);
  } catch (error) {
    assert.ok(error instanceof SchemaError, `expected a SchemaError, got ${String(error)}`);
    return error;
  }
  assert.fail(`compile accepted ${JSON.stringify(schema)}`);
}

describe('wrong keyword value shapes', () => {
  const table: [keyword: string, value: unknown, reason: RegExp][] = [
    ['type', 'objekt', /unknown type "objekt"/],
    ['type', ['string', 'string'], /listed twice/],
    ['properties', [], /values are schemas/],
    ['properties', {a: 1}, /values are schemas/],
    ['patternProperties', {'^a': 'x'}, /values are schemas/],
    ['patternProperties', {'(': {}}, /invalid regular expression/],
    ['additionalProperties', 'no', /must be a schema/],
    ['unevaluatedProperties', 1, /must be a schema/],
    ['required', 'id', /array of unique strings/],
    ['required', ['id', 'id'], /"id" is repeated/],
    ['required', [1], /array of unique strings/],
    ['propertyNames', [], /must be a schema/],
    ['minProperties', -1, /non-negative integer/],
    ['minProperties', 1.5, /non-negative integer/],
    ['maxProperties', '3', /non-negative integer/],
    ['dependentRequired', {a: 'b'}, /array of unique strings/],
    ['dependentSchemas', {a: 1}, /values are schemas/],
    ['if', 'x', /must be a schema/],
    ['allOf', [], /non-empty array of schemas/],
    ['anyOf', {}, /array of schemas/],
    ['oneOf', [1], /array of schemas/],
    ['not', null, /must be a schema/],
    ['enum', 'a', /must be an array/],
    ['pattern', '[', /invalid regular expression/],
    ['pattern', 5, /must be a string/],
    ['$defs', [], /values are schemas/],
    ['$ref', 5, /must be a string/],
    ['minimum', '1', /must be a number/],
    ['multipleOf', 0, /greater than 0/],
    ['maxLength', -2, /non-negative integer/],
    ['items', 3, /must be a schema/],
    ['uniqueItems', 'yes', /must be a boolean/],
  ];
  for (const [keyword, value, reason] of table) {
    test(`${keyword}: ${JSON.stringify(value)}`, () => {
      const error = schemaError({properties: {field: {[keyword]: value}}});
      assert.match(error.message, reason);
      assert.ok(error.schemaLocation.startsWith(`/properties/field/${keyword}`), error.schemaLocation);
      assert.match(error.code, /^schema\./);
    });
  }

  test('then/else must be schemas where if is', () => {
    assert.equal(schemaError({if: {}, then: 3}).schemaLocation, '/then');
  });
});

describe('references', () => {
  test('an unresolvable $ref names the reference and where it is', () => {
    const error = schemaError({properties: {a: {$ref: '#/$defs/missing'}}});
    assert.equal(error.code, 'schema.ref.unresolved');
    assert.equal(error.schemaLocation, '/properties/a/$ref');
    assert.match(error.message, /#\/\$defs\/missing/);
  });

  test('another document is found through options.schemas, never fetched', () => {
    const schemas = {'https://example.com/address.json': {type: 'object', required: ['city']}};
    const validator = compile({$ref: 'https://example.com/address.json'}, {schemas});
    assert.equal(validator.validate({city: 'Oslo'}).valid, true);
    assert.equal(validator.validate({}).valid, false);
    assert.equal(schemaError({$ref: 'https://example.com/elsewhere.json'}).code, 'schema.ref.unresolved');
  });

  test('a registered document is found by its $id as well as by its key', () => {
    const schemas = {'https://ex/a.json': {$id: 'https://ex/b.json', type: 'string'}};
    for (const uri of ['https://ex/a.json', 'https://ex/b.json']) {
      const validator = compile({$ref: uri}, {schemas});
      assert.equal(validator.validate('s').valid, true, uri);
      assert.equal(validator.validate(1).valid, false, uri);
    }
  });

  test('an $id embedded in a registered bundle names its subschema', () => {
    const bundle = {
      $id: 'https://ex/bundle.json',
      $defs: {
        id: {$id: 'https://ex/id.json', type: 'integer', minimum: 1},
        name: {$id: 'names/name.json', type: 'string', $defs: {short: {$anchor: 'short', maxLength: 3}}},
      },
    };
    const validator = compile(
      {properties: {id: {$ref: 'https://ex/id.json'}, name: {$ref: 'https://ex/names/name.json'}, code: {$ref: 'https://ex/names/name.json#short'}}},
      {schemas: {'https://ex/registry/bundle': bundle}},
    );
    assert.equal(validator.validate({id: 1, name: 'x', code: 'abc'}).valid, true);
    assert.equal(validator.validate({id: 0}).valid, false);
    assert.equal(validator.validate({name: 1}).valid, false);
    assert.equal(validator.validate({code: 'abcd'}).valid, false);
  });

  test('two different schemas identified by one URI are a SchemaError; the same schema twice is not', () => {
    const schemas = {'https://ex/a.json': {$id: 'https://ex/b.json', type: 'string'}, 'https://ex/c.json': {$id: 'https://ex/b.json', type: 'number'}};
    const error = schemaError({$ref: 'https://ex/b.json'}, {schemas});
    assert.equal(error.code, 'schema.id.duplicate');
    assert.equal(error.schemaLocation, 'https://ex/c.json#/$id');
    const copies = {'https://ex/a.json': {$id: 'https://ex/b.json', type: 'string'}, 'https://ex/c.json': {$id: 'https://ex/b.json', type: 'string'}};
    assert.equal(compile({$ref: 'https://ex/b.json'}, {schemas: copies}).validate(1).valid, false);
  });

  test("each draft's meta-schema is available offline", () => {
    const metaSchemas = {
      draft4: 'http://json-schema.org/draft-04/schema#',
      draft6: 'http://json-schema.org/draft-06/schema#',
      draft7: 'http://json-schema.org/draft-07/schema#',
      'draft2019-09': 'https://json-schema.org/draft/2019-09/schema',
      'draft2020-12': 'https://json-schema.org/draft/2020-12/schema',
    } as const;
    for (const [draft, uri] of Object.entries(metaSchemas)) {
      const validator = compile({$ref: uri}, {draft: draft as keyof typeof metaSchemas});
      assert.equal(validator.validate({type: 'string'}).valid, true, draft);
      assert.equal(validator.validate({type: 12}).valid, false, draft);
    }
  });

  // An outside attack: `{"$id": "#foo"}` compiled in 2020-12 and named an anchor, as draft 7 reads
  // it; ajv refuses it by the meta-schema's pattern for $id, "^[^#]*#?$".
  test('from draft 2019-09 an $id with a fragment is a SchemaError; an empty fragment, and draft 7, are not', () => {
    for (const [schema, at] of [
      [{$id: '#frag'}, ''],
      [{$defs: {a: {$id: '#foo', type: 'integer'}}, $ref: '#foo'}, '/$defs/a'],
      [{$id: 'https://example.com/s#a'}, ''],
      [{$schema: 'https://json-schema.org/draft/2019-09/schema', $defs: {a: {$id: 'other.json#x'}}}, '/$defs/a'],
    ] as const) {
      assert.throws(() => compile(schema), (error: unknown) => error instanceof SchemaError && error.code === 'schema.id.invalid' && error.schemaLocation === at, JSON.stringify(schema));
    }
    assert.equal(compile({$id: 'https://example.com/s#', type: 'integer'}).validate(1).valid, true);
    const anchored = compile({$schema: 'http://json-schema.org/draft-07/schema#', allOf: [{$ref: '#foo'}], definitions: {a: {$id: '#foo', type: 'integer'}}});
    assert.equal(anchored.validate('x').valid, false);
    assert.equal(anchored.validate(1).valid, true);
  });

  test('pointers with ~0, ~1 and percent-encoding', () => {
    const validator = compile({
      $defs: {'a/b': {type: 'string'}, 'c~d': {type: 'number'}, 'e f': {type: 'null'}},
      properties: {x: {$ref: '#/$defs/a~1b'}, y: {$ref: '#/$defs/c~0d'}, z: {$ref: '#/$defs/e%20f'}},
    });
    assert.equal(validator.validate({x: 's', y: 1, z: null}).valid, true);
    assert.equal(validator.validate({x: 1}).valid, false);
    assert.equal(validator.validate({y: 's'}).valid, false);
    assert.equal(validator.validate({z: 0}).valid, false);
  });
});

describe("refSiblings: draft-07's $ref read as written or as ajv reads it", () => {
  const schema = {$defs: {code: {type: 'string'}}, properties: {code: {$ref: '#/$defs/code', maxLength: 2}}};

  test("'ignore' (default) hides the siblings of $ref (draft-07 §8.3); 'apply' applies them", () => {
    for (const [refSiblings, valid] of [[undefined, true], ['ignore', true], ['apply', false]] as const) {
      const validator = compile(schema, {draft: 'draft7', refSiblings});
      assert.equal(validator.validate({code: 'abc'}).valid, valid, String(refSiblings));
      assert.equal(validator.validate({code: 1}).valid, false, 'what $ref names applies either way');
    }
  });

  test('$defs, a schema holder in every draft, is no unknown keyword in draft-07', () => {
    assert.deepEqual(compile(schema, {draft: 'draft7', strict: true}).warnings, []);
  });

  test('any other value is a SchemaError', () => {
    assert.throws(() => compile(schema, {refSiblings: 'sometimes' as never}), (error: unknown) => error instanceof SchemaError && error.code === 'schema.option.refSiblings');
  });
});

describe('baseUri: the URI the root schema was retrieved from (2020-12 core §9.1.1)', () => {
  const sibling = {definitions: {positive: {type: 'integer', minimum: 1}}};

  test('relative references resolve against it', () => {
    const validator = compile({$ref: 'b.json#/definitions/positive'}, {baseUri: 'file:///schemas/a.json', schemas: {'file:///schemas/b.json': sibling}});
    assert.equal(validator.validate(3).valid, true);
    assert.equal(validator.validate(0).valid, false);
  });

  test('draft 7: an $id beside $ref at the root is ignored, so the retrieval URI is the base', () => {
    const schema = {$schema: 'http://json-schema.org/draft-07/schema#', $id: 'https://example.com/elsewhere/a.json', $ref: 'b.json#/definitions/positive'};
    const validator = compile(schema, {baseUri: 'file:///schemas/a.json', schemas: {'file:///schemas/b.json': sibling}});
    assert.equal(validator.validate(0).valid, false);
    // Without it, the placeholder base cannot find the sibling: what the catalog's six schemas met.
    assert.equal(schemaError(schema, {schemas: {'file:///schemas/b.json': sibling}}).code, 'schema.ref.unresolved');
  });

  test("where the draft honours the root's own $id, that $id is the base", () => {
    const schema = {$id: 'https://example.com/schemas/a.json', $ref: 'b.json#/definitions/positive'};
    const validator = compile(schema, {baseUri: 'file:///elsewhere/a.json', schemas: {'https://example.com/schemas/b.json': sibling}});
    assert.equal(validator.validate(0).valid, false);
    const relative = {$id: 'v2/a.json', $ref: 'b.json#/definitions/positive'};
    assert.equal(compile(relative, {baseUri: 'https://example.com/schemas/a.json', schemas: {'https://example.com/schemas/v2/b.json': sibling}}).validate(0).valid, false);
  });

  test('relative keys of options.schemas resolve against it too', () => {
    const validator = compile({$ref: 'b.json#/definitions/positive'}, {baseUri: 'file:///schemas/a.json', schemas: {'b.json': sibling}});
    assert.equal(validator.validate(0).valid, false);
  });

  test('schema locations in the root stay pointers; a relative or non-string baseUri is a SchemaError', () => {
    assert.equal(schemaError({properties: {a: {type: 3}}}, {baseUri: 'file:///schemas/a.json'}).schemaLocation, '/properties/a/type');
    assert.equal(schemaError({}, {baseUri: 'a.json'}).code, 'schema.option.baseUri');
    assert.equal(schemaError({}, {baseUri: 7 as unknown as string}).code, 'schema.option.baseUri');
  });
});

describe('an unresolved reference says what it tried, against which base, and what comes close', () => {
  test('a document registered under another URI with the same file name', () => {
    const error = schemaError({$ref: 'b.json'}, {baseUri: 'file:///schemas/a.json', schemas: {'https://example.com/schemas/b.json': {}}});
    assert.deepEqual(error.unresolved, {reference: 'b.json', uri: 'file:///schemas/b.json', base: 'file:///schemas/a.json', registered: ['https://example.com/schemas/b.json', 'file:///schemas/a.json']});
    assert.match(error.message, /tried "file:\/\/\/schemas\/b\.json" \(resolved against the base "file:\/\/\/schemas\/a\.json"\)/);
    assert.match(error.message, /registered and close: "https:\/\/example\.com\/schemas\/b\.json"/);
  });

  test('a pointer that stops resolving: the locations beside where it stopped', () => {
    const error = schemaError({$ref: '#/definitions/adress', definitions: {address: {}, person: {}}});
    assert.deepEqual(error.unresolved?.registered, ['stream-schema:///root.json#/definitions/address']);
    assert.match(error.message, /has nothing at "#\/definitions\/adress"/);
  });

  test('an anchor: the anchors of that resource that come close', () => {
    const error = schemaError({$ref: '#nod', $defs: {node: {$anchor: 'node'}}});
    assert.deepEqual(error.unresolved?.registered, ['stream-schema:///root.json#node']);
    assert.match(error.message, /has no anchor "nod"/);
  });

  test('nothing close: nothing suggested', () => {
    const error = schemaError({$ref: 'https://example.com/nowhere.json'});
    assert.deepEqual(error.unresolved?.registered, []);
    assert.equal(error.unresolved?.uri, 'https://example.com/nowhere.json');
    assert.match(error.message, /no schema is registered under that URI/);
  });
});

describe('drafts', () => {
  test('draft 4 rejects an empty required', () => {
    assert.match(schemaError({required: []}, {draft: 'draft4'}).message, /at least one element/);
    compile({required: []}, {draft: 'draft6'});
  });

  test('the draft comes from $schema, else the option, else 2020-12', () => {
    assert.equal(compile({$schema: 'http://json-schema.org/draft-07/schema#'}).draft, 'draft7');
    assert.equal(compile({}).draft, 'draft2020-12');
    assert.equal(compile({}, {draft: 'draft6'}).draft, 'draft6');
  });

  test('an unknown $schema is a SchemaError, unless the draft option says how to read it', () => {
    const unknown = {$schema: 'https://example.com/my-dialect', type: 'string'};
    const error = schemaError(unknown);
    assert.equal(error.code, 'schema.dialect.unknown');
    assert.equal(error.schemaLocation, '/$schema');
    assert.match(error.message, /https:\/\/example\.com\/my-dialect/);
    assert.equal(compile(unknown, {draft: 'draft7'}).draft, 'draft7');
    assert.equal(schemaError({$defs: {a: {$id: 'https://ex/a', $schema: 'https://example.com/my-dialect'}}}).schemaLocation, '/$defs/a/$schema');
    assert.equal(schemaError({$ref: 'https://ex/a'}, {schemas: {'https://ex/a': unknown}}).schemaLocation, 'https://ex/a#/$schema');
  });

  test('a registered meta-schema names the draft its schemas are read in', () => {
    const metaSchema = {$id: 'https://example.com/my-dialect', $schema: 'http://json-schema.org/draft-07/schema#'};
    assert.equal(compile({$schema: 'https://example.com/my-dialect'}, {schemas: {'https://example.com/my-dialect': metaSchema}}).draft, 'draft7');
    assert.equal(compile({$schema: 'https://example.com/my-dialect'}, {schemas: {'https://example.com/registry/1': metaSchema}}).draft, 'draft7');
  });

  test('an unknown draft option is a SchemaError', () => {
    assert.equal(schemaError({}, {draft: 'draft5' as never}).code, 'schema.option.draft');
  });
});

describe('strict mode', () => {
  test('unknown keywords are ignored by default and an error when strict', () => {
    compile({tpye: 'string'});
    const error = schemaError({properties: {a: {tpye: 'string'}}}, {strict: true});
    assert.equal(error.code, 'schema.keyword.unknown');
    assert.equal(error.schemaLocation, '/properties/a/tpye');
  });

  test('unknown keywords are warnings of the validator, each with its location and the keyword likely meant', () => {
    const validator = compile({requird: ['id'], properties: {id: {tpye: 'integer'}, name: {'x-label': 'Name'}}, $defs: {a: {$ref: '#/$defs/b'}, b: {minimun: 1}}});
    assert.deepEqual(
      validator.warnings.map(({code, schemaLocation, keyword}) => ({code, schemaLocation, keyword})),
      [
        {code: 'schema.keyword.unknown', schemaLocation: '/requird', keyword: 'requird'},
        {code: 'schema.keyword.unknown', schemaLocation: '/$defs/b/minimun', keyword: 'minimun'},
        {code: 'schema.keyword.unknown', schemaLocation: '/properties/id/tpye', keyword: 'tpye'},
        {code: 'schema.keyword.unknown', schemaLocation: '/properties/name/x-label', keyword: 'x-label'},
      ],
    );
    assert.match(validator.warnings.find((warning) => warning.keyword === 'requird')!.message, /unknown keyword "requird" \(did you mean "required"\?\)/);
    assert.doesNotMatch(validator.warnings.find((warning) => warning.keyword === 'x-label')!.message, /did you mean/);
    assert.deepEqual(compile({type: 'string', title: 't'}).warnings, []);
  });

  test("strict: 'warn' logs each unknown keyword once per schema location, when the schema compiles", () => {
    const logged: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void logged.push(args);
    try {
      // One location referenced three times is one line.
      const validator = compile({properties: {a: {$ref: '#/$defs/t'}, b: {$ref: '#/$defs/t'}, c: {$ref: '#/$defs/t'}}, $defs: {t: {tpye: 'string'}}}, {strict: 'warn'});
      validator.validate({a: 1, b: 2});
      validator.validateText('{"a": 1}');
      compile({tpye: 'string'});
    } finally {
      console.warn = original;
    }
    assert.deepEqual(logged, [['stream-schema: unknown keyword "tpye" (did you mean "type"?) (at schema location "/$defs/t/tpye")']]);
  });

  test('annotations are known keywords', () => {
    compile({title: 't', description: 'd', default: 1, examples: [], $comment: 'c', deprecated: false}, {strict: true});
  });

  test('a schema nested too deeply to compile is a SchemaError, not a stack overflow', () => {
    let schema: unknown = {type: 'string'};
    for (let i = 0; i < 50_000; i++) schema = {items: schema};
    assert.equal(schemaError(schema).code, 'schema.tooDeep');
  });

  test('a schema that is not an object or boolean', () => {
    assert.equal(schemaError(42).code, 'schema.shape');
    assert.equal(schemaError({properties: {a: 'string'}}).schemaLocation, '/properties/a');
  });
});

describe('options that are not an object', () => {
  // Destructured as given, null threw the runtime's own TypeError, and a number or a string was read as no options.
  test('compile() and session() name the mistake in a TypeError', () => {
    for (const options of [null, 5, 'strict', true, []]) {
      assert.throws(() => compile({type: 'object'}, options as never), {name: 'TypeError', message: /^compile\(\): options must be an object, not /});
      assert.throws(() => compile({type: 'object'}).session(options as never), {name: 'TypeError', message: /^session\(\): options must be an object, not /});
    }
    // A function is named as one, not by its source.
    assert.throws(() => compile({type: 'object'}, function secret() {} as never), {name: 'TypeError', message: 'compile(): options must be an object, not a function'});
    assert.equal(compile({type: 'object'}, undefined).session(undefined).write('{}'), true);
  });
});

describe('an argument or option a function cannot take', () => {
  // Each is the TypeError or RangeError it was, now with a code to tell it by, as our other errors have.
  test('is an ArgumentError (a TypeError) or an ArgumentRangeError (a RangeError), with its code', () => {
    const typeErrors: (() => unknown)[] = [
      () => compile({type: 'object'}, null as never),
      () => compile(compile(true) as never),
      () => compile({type: 'object'}, {limits: {maxDepth: 'deep' as never}}),
    ];
    for (const call of typeErrors) {
      assert.throws(call, (error: unknown) => error instanceof ArgumentError && error instanceof TypeError && error.name === 'TypeError' && error.code === 'argument.invalid');
    }
    for (const call of [() => ndjsonValidator({}, {workers: 0}), () => ndjsonValidator({}, {maxLineLength: 0}), () => ndjsonValidator({}, {onInvalid: 'drop' as never})]) {
      assert.throws(call, (error: unknown) => error instanceof ArgumentRangeError && error instanceof RangeError && error.name === 'RangeError' && error.code === 'argument.range');
    }
    // The workers' own: a function cannot travel to a thread.
    assert.throws(() => ndjsonValidator({format: 'x'}, {workers: 2, customFormats: {x: () => true}}), (error: unknown) => error instanceof WorkerOptionsError && error instanceof ArgumentError && error.code === 'ndjson.workers.options');
  });
});
