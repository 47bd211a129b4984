// src/keywords/format.ts: an annotation unless asserted (option `formats: 'assert'` or the
// format-assertion vocabulary); unknown formats always pass; the names known depend on the draft.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

const assert_ = {formats: 'assert' as const};

describe('format', () => {
  test('by default an annotation: nothing is checked', () => {
    valid({format: 'ipv4'}, 'not an address');
    valid({format: 'date'}, '2024-13-45');
  });

  test('asserted: strings must have the format', () => {
    valid({format: 'ipv4'}, '192.168.0.1', assert_);
    invalid({format: 'ipv4'}, '192.168.0.256', assert_);
    valid({format: 'date'}, '2024-02-29', assert_);
    invalid({format: 'date'}, '2023-02-29', assert_);
  });

  test('asserted: non-strings are not judged', () => {
    for (const value of [1, null, true, [], {}]) valid({format: 'email'}, value, assert_);
  });

  test('asserted: an unknown format passes', () => {
    valid({format: 'no-such-format'}, 'anything', assert_);
  });

  test('the names known depend on the draft', () => {
    // uuid and duration arrive in 2019-09; date in draft 7.
    invalid({format: 'uuid'}, 'nope', {...assert_, draft: 'draft2019-09'});
    valid({format: 'uuid'}, 'nope', {...assert_, draft: 'draft7'});
    invalid({format: 'duration'}, 'P', {...assert_, draft: 'draft2020-12'});
    valid({format: 'duration'}, 'P', {...assert_, draft: 'draft7'});
    invalid({format: 'date'}, 'x', {...assert_, draft: 'draft7'});
    valid({format: 'date'}, 'x', {...assert_, draft: 'draft6'});
    invalid({format: 'json-pointer'}, 'x', {...assert_, draft: 'draft6'});
    valid({format: 'json-pointer'}, 'x', {...assert_, draft: 'draft4'});
  });

  test('relative-json-pointer allows index manipulation in 2020-12 only', () => {
    valid({format: 'relative-json-pointer'}, '0+1', {...assert_, draft: 'draft2020-12'});
    invalid({format: 'relative-json-pointer'}, '0+1', {...assert_, draft: 'draft2019-09'});
  });

  test('the format-assertion vocabulary in a meta-schema turns assertion on', () => {
    const metaSchema = {
      $id: 'https://example.com/format-assertion',
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $vocabulary: {
        'https://json-schema.org/draft/2020-12/vocab/core': true,
        'https://json-schema.org/draft/2020-12/vocab/format-assertion': true,
      },
    };
    const options = {schemas: {'https://example.com/format-assertion': metaSchema}};
    invalid({$schema: 'https://example.com/format-assertion', format: 'ipv4'}, 'x', options);
    valid({$schema: 'https://example.com/format-assertion', format: 'ipv4'}, '10.0.0.1', options);
  });

  test('the error names the format', () => {
    assert.deepEqual(summary(onlyError({properties: {ip: {format: 'ipv6'}}}, {ip: '::g'}, assert_)), {
      keyword: 'format',
      keywordLocation: '/properties/ip/format',
      instanceLocation: '/ip',
      params: {format: 'ipv6'},
      error: 'must match format "ipv6"',
    });
  });

  test('streaming: decided at the closing quote', () => {
    const text = '["1.1.1.1", "1.1.1", 0]';
    assert.equal(refusalByte({items: {format: 'ipv4'}}, text, assert_), text.indexOf('", 0'));
  });

  test('compile: the value must be a string, even when formats are not asserted', () => {
    const error = schemaError({format: 4});
    assert.equal(error.schemaLocation, '/format');
    assert.equal(error.code, 'schema.keyword.invalid');
  });
});
