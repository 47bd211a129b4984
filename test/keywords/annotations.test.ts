// src/keywords/annotations.ts: keywords with no effect on the verdict whose values still have a
// shape to check: identifiers, anchors, `$comment`, `$defs` / `definitions` (compiled even when
// nothing refers to them), `then` / `else` without `if`, and `contentSchema`; and the annotations
// of the basic output (CompileOptions.annotations), kept only where every subschema passed.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile} from '../../src/index.js';
import type {CompileOptions, Result} from '../../src/types.js';
import {byteChunks, feed} from '../support/chunks.js';
import {invalid, schemaError, valid} from './check.js';

const encoder = new TextEncoder();

/**
 * The annotations of `data`, as sorted `keywordLocation instanceLocation JSON(annotation)` lines
 * (their order is not the spec's to say, 2020-12 core §7.7.1.1), after
 * insisting that value mode, validateText, parseText and a session fed 1-byte chunks agree;
 * undefined when the result carries none.
 */
function annotationsOf(schema: unknown, data: unknown, options: CompileOptions = {}): string[] | undefined {
  const validator = compile(schema, {annotations: true, ...options});
  const text = JSON.stringify(data);
  const {value: _value, ...parsed} = validator.parseText(text);
  const {refusedAt: _refusedAt, ...fed} = feed(validator, byteChunks(encoder.encode(text)));
  const results: Result[] = [validator.validate(data), validator.validateText(text), parsed, fed];
  const lines = results.map((result) => result.annotations?.map((unit) => `${unit.keywordLocation} ${unit.instanceLocation} ${JSON.stringify(unit.annotation)}`).sort());
  for (const other of lines.slice(1)) assert.deepEqual(other, lines[0], 'every mode reports the same annotations');
  return lines[0];
}

describe('annotation keywords', () => {
  test('they do not change any verdict', () => {
    const schema = {
      $id: 'https://example.com/a',
      $comment: 'note',
      $anchor: 'top',
      title: 't',
      description: 'd',
      default: 5,
      examples: [1],
      deprecated: true,
      readOnly: true,
      writeOnly: false,
      contentMediaType: 'application/json',
      contentEncoding: 'base64',
      contentSchema: false,
      $defs: {never: false},
      then: false,
      else: false,
    };
    for (const value of [null, 1, 'x', [1], {a: 1}]) valid(schema, value);
  });

  test('identifiers and $comment are strings', () => {
    assert.equal(schemaError({$id: 5}).schemaLocation, '/$id');
    assert.equal(schemaError({$schema: 5}).schemaLocation, '/$schema');
    assert.equal(schemaError({$comment: 5}).schemaLocation, '/$comment');
    assert.equal(schemaError({id: 5}, {draft: 'draft4'}).schemaLocation, '/id');
  });

  test('draft differences: id is draft 4 only, $comment from draft 7', () => {
    valid({id: 5}, 1, {draft: 'draft6'});
    valid({$comment: 5}, 1, {draft: 'draft6'});
    assert.equal(schemaError({$comment: 5}, {draft: 'draft7'}).schemaLocation, '/$comment');
  });

  test('anchors are plain names', () => {
    valid({$anchor: 'good-name.1_x'}, 1);
    assert.equal(schemaError({$anchor: '1bad'}).schemaLocation, '/$anchor');
    assert.equal(schemaError({$anchor: 'a b'}).schemaLocation, '/$anchor');
    assert.equal(schemaError({$dynamicAnchor: '#x'}).schemaLocation, '/$dynamicAnchor');
    assert.equal(schemaError({$anchor: 1}).code, 'schema.keyword.invalid');
  });

  test('$recursiveAnchor is a boolean (2019-09)', () => {
    valid({$recursiveAnchor: true}, 1, {draft: 'draft2019-09'});
    assert.equal(schemaError({$recursiveAnchor: 'yes'}, {draft: 'draft2019-09'}).schemaLocation, '/$recursiveAnchor');
  });

  test('$defs / definitions are compiled even when unreferenced: a broken subschema is reported', () => {
    assert.equal(schemaError({$defs: {a: {type: 'bogus'}}}).schemaLocation, '/$defs/a/type');
    assert.equal(schemaError({definitions: {'x/y': {minimum: 'no'}}}, {draft: 'draft7'}).schemaLocation, '/definitions/x~1y/minimum');
    assert.equal(schemaError({$defs: {a: 3}}).schemaLocation, '/$defs/a');
    assert.equal(schemaError({$defs: []}).schemaLocation, '/$defs');
  });

  test('$defs does not exist before 2019-09', () => {
    valid({$defs: {a: {type: 'bogus'}}}, 1, {draft: 'draft7'});
  });

  test('$id inside $defs and contentSchema is found by $ref', () => {
    invalid({$defs: {a: {$id: 'https://example.com/d', type: 'string'}}, $ref: 'https://example.com/d'}, 1);
    invalid({contentSchema: {$id: 'https://example.com/c', type: 'string'}, $ref: 'https://example.com/c'}, 1);
  });

  test('strict mode: known annotations pass, unknown keywords are SchemaErrors', () => {
    valid({title: 'x', $comment: 'c', examples: []}, 1, {strict: true});
    const error = schemaError({titel: 'x'}, {strict: true});
    assert.equal(error.code, 'schema.keyword.unknown');
    assert.equal(error.schemaLocation, '/titel');
    assert.equal(schemaError({readOnly: true}, {strict: true, draft: 'draft6'}).code, 'schema.keyword.unknown');
    valid({titel: 'x'}, 1);
  });

  test(
    'then, else and contentSchema values must be schemas even without if',
    () => {
      assert.equal(schemaError({then: 5}).schemaLocation, '/then');
      assert.equal(schemaError({else: 'x'}).schemaLocation, '/else');
      assert.equal(schemaError({contentSchema: 5}).schemaLocation, '/contentSchema');
    },
  );
});

describe('annotations: true', () => {
  test('each annotation keyword reports its value at each value its schema passes', () => {
    const schema = {
      title: 'order',
      properties: {
        id: {type: 'integer', description: 'the id', readOnly: true},
        tags: {items: {examples: ['a'], deprecated: true}},
        body: {contentMediaType: 'application/json', contentEncoding: 'base64', contentSchema: {type: 'object'}},
      },
      default: {},
    };
    assert.deepEqual(annotationsOf(schema, {id: 1, tags: ['x', 'y'], body: 'e30='}), [
      '/default  {}',
      '/properties/body/contentEncoding /body "base64"',
      '/properties/body/contentMediaType /body "application/json"',
      '/properties/body/contentSchema /body {"type":"object"}',
      '/properties/id/description /id "the id"',
      '/properties/id/readOnly /id true',
      '/properties/tags/items/deprecated /tags/0 true',
      '/properties/tags/items/deprecated /tags/1 true',
      '/properties/tags/items/examples /tags/0 ["a"]',
      '/properties/tags/items/examples /tags/1 ["a"]',
      '/title  "order"',
    ]);
  });

  test('a failed document has no annotations, and a valid one an empty list when none applies', () => {
    assert.equal(annotationsOf({type: 'string', readOnly: true}, 1), undefined);
    assert.deepEqual(annotationsOf({type: 'string'}, 'x'), []);
    assert.equal(compile({readOnly: true}).validate(1).annotations, undefined);
  });

  test("a failed subschema's annotations are dropped, a passing one's kept (2020-12 core §7.7.1.2)", () => {
    const schema = {
      anyOf: [{type: 'string', title: 'text'}, {type: 'integer', title: 'whole'}, {minimum: 0, title: 'positive'}],
      not: {type: 'null', title: 'never kept'},
      if: {maximum: 10, title: 'small'},
      then: {title: 'then'},
      else: {title: 'else'},
    };
    assert.deepEqual(annotationsOf(schema, 3), ['/anyOf/1/title  "whole"', '/anyOf/2/title  "positive"', '/if/title  "small"', '/then/title  "then"']);
    assert.deepEqual(annotationsOf(schema, 30.5), ['/anyOf/2/title  "positive"', '/else/title  "else"']);
  });

  test('contains keeps the annotations of the items that match only', () => {
    assert.deepEqual(annotationsOf({contains: {type: 'string', title: 's'}}, [1, 'a', 2, 'b']), ['/contains/title /1 "s"', '/contains/title /3 "s"']);
  });

  test('annotations through $ref carry the path through the reference and the absolute location of the keyword', () => {
    const validator = compile({$id: 'https://example.com/root', properties: {a: {$ref: '#/$defs/a'}}, $defs: {a: {title: 'A'}}}, {annotations: true});
    assert.deepEqual(validator.validate({a: 1}).annotations, [
      {valid: true, keyword: 'title', keywordLocation: '/properties/a/$ref/title', absoluteKeywordLocation: 'https://example.com/root#/$defs/a/title', instanceLocation: '/a', annotation: 'A'},
    ]);
  });

  test('unevaluatedProperties annotates only the members no sibling evaluated', () => {
    const schema = {allOf: [{properties: {a: {title: 'a'}}}], unevaluatedProperties: {title: 'rest'}};
    assert.deepEqual(annotationsOf(schema, {a: 1, b: 2}), ['/allOf/0/properties/a/title /a "a"', '/unevaluatedProperties/title /b "rest"']);
    assert.deepEqual(annotationsOf({properties: {a: {title: 'a'}}, unevaluatedProperties: {title: 'rest'}}, {a: 1, b: 2}), ['/properties/a/title /a "a"', '/unevaluatedProperties/title /b "rest"']);
  });

  test('the keywords of a draft only: readOnly is no annotation in draft 6, nor is anything beside $ref in draft 7', () => {
    assert.deepEqual(annotationsOf({readOnly: true, title: 't'}, 1, {draft: 'draft6'}), ['/title  "t"']);
    assert.deepEqual(annotationsOf({$ref: '#/definitions/a', title: 'hidden', definitions: {a: {title: 'a'}}}, 1, {draft: 'draft7'}), ['/$ref/title  "a"']);
  });

  test('an annotation is a frozen copy of the schema value: no result can change the schema or the next result', () => {
    const schema = {default: {tags: ['a']}};
    const validator = compile(schema, {annotations: true});
    const annotation = validator.validate(1).annotations![0]!.annotation as {tags: string[]};
    assert.deepEqual(annotation, {tags: ['a']});
    assert.notEqual(annotation, schema.default);
    assert.throws(() => annotation.tags.push('b'), TypeError);
  });
});
