// src/keywords/format.ts: an annotation unless asserted (option `formats: 'assert'` or the
// format-assertion vocabulary); the names known depend on the draft, and customFormats adds more;
// asserting an unknown format is a SchemaError unless `unknownFormats: 'ignore'`. A custom
// NumberFormat judges numbers (ajv-formats' int32 is one).

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile} from '../../src/index.js';
import type {CompileOptions} from '../../src/types.js';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

const assert_ = {formats: 'assert' as const};

/** The one error of a property `value` whose string fails `format`: it names the format. */
function assertNamesFormat(format: string, value: string, options: CompileOptions): void {
  assert.deepEqual(summary(onlyError({properties: {field: {format}}}, {field: value}, options)), {
    keyword: 'format',
    keywordLocation: '/properties/field/format',
    instanceLocation: '/field',
    params: {format},
    error: `must match format "${format}"`,
  });
}

const formatAssertion = {
  $id: 'https://example.com/format-assertion',
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $vocabulary: {
    'https://json-schema.org/draft/2020-12/vocab/core': true,
    'https://json-schema.org/draft/2020-12/vocab/format-assertion': true,
  },
};

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

  test('asserted: an unknown format is a SchemaError that names it, unless unknownFormats is ignore', () => {
    const error = schemaError({properties: {tel: {format: 'phone'}}}, assert_);
    assert.equal(error.code, 'schema.format.unknown');
    assert.equal(error.schemaLocation, '/properties/tel/format');
    assert.match(error.message, /unknown format "phone"/);
    valid({format: 'phone'}, 'anything', {...assert_, unknownFormats: 'ignore'});
    // Not asserted: nothing is checked, so nothing is unknown.
    valid({format: 'phone'}, 'anything');
  });

  test('the format-assertion vocabulary refuses an unknown format as the option does', () => {
    assert.equal(schemaError({$schema: 'https://example.com/format-assertion', format: 'phone'}, {schemas: {'https://example.com/format-assertion': formatAssertion}}).code, 'schema.format.unknown');
  });

  test('the names known depend on the draft: a later draft\'s format is unknown to an earlier one', () => {
    // uuid and duration arrive in 2019-09; date in draft 7.
    invalid({format: 'uuid'}, 'nope', {...assert_, draft: 'draft2019-09'});
    assert.equal(schemaError({format: 'uuid'}, {...assert_, draft: 'draft7'}).code, 'schema.format.unknown');
    invalid({format: 'duration'}, 'P', {...assert_, draft: 'draft2020-12'});
    valid({format: 'duration'}, 'P', {...assert_, draft: 'draft7', unknownFormats: 'ignore'});
    invalid({format: 'date'}, 'x', {...assert_, draft: 'draft7'});
    assert.equal(schemaError({format: 'date'}, {...assert_, draft: 'draft6'}).code, 'schema.format.unknown');
    invalid({format: 'json-pointer'}, 'x', {...assert_, draft: 'draft6'});
    valid({format: 'json-pointer'}, 'x', {...assert_, draft: 'draft4', unknownFormats: 'ignore'});
  });

  test('relative-json-pointer allows index manipulation in 2020-12 only', () => {
    valid({format: 'relative-json-pointer'}, '0+1', {...assert_, draft: 'draft2020-12'});
    invalid({format: 'relative-json-pointer'}, '0+1', {...assert_, draft: 'draft2019-09'});
  });

  test('the format-assertion vocabulary in a meta-schema turns assertion on', () => {
    const options = {schemas: {'https://example.com/format-assertion': formatAssertion}};
    invalid({$schema: 'https://example.com/format-assertion', format: 'ipv4'}, 'x', options);
    valid({$schema: 'https://example.com/format-assertion', format: 'ipv4'}, '10.0.0.1', options);
  });

  test('the error names the format', () => {
    assertNamesFormat('ipv6', '::g', assert_);
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

  describe('customFormats', () => {
    const phone = /^\+[0-9]{6,15}$/;

    test('a RegExp or a function asserts under formats: assert, in every mode', () => {
      for (const check of [phone, (value: string) => phone.test(value)]) {
        const options = {...assert_, customFormats: {phone: check}};
        valid({format: 'phone'}, '+4712345678', options);
        invalid({format: 'phone'}, '12345', options);
        valid({format: 'phone'}, 12345, options);
        assertNamesFormat('phone', 'x', options);
      }
    });

    test('they annotate where formats are not asserted', () => {
      valid({format: 'phone'}, 'not a phone', {customFormats: {phone}});
    });

    test('a global or sticky RegExp judges each string alone', () => {
      const options = {...assert_, customFormats: {digits: /^[0-9]+$/gy}};
      for (let i = 0; i < 3; i++) valid({format: 'digits'}, '123', options);
    });

    test('a function passes a string only by returning true', () => {
      invalid({format: 'truthy'}, 'x', {...assert_, customFormats: {truthy: ((value: string) => value.length) as unknown as (value: string) => boolean}});
    });

    test("a custom format replaces the draft's format of the same name", () => {
      valid({format: 'email'}, 'not-an-email', {...assert_, customFormats: {email: () => true}});
    });

    test('a custom format is known to every draft', () => {
      invalid({format: 'phone'}, 'x', {...assert_, draft: 'draft4', customFormats: {phone}});
    });

    test('a NumberFormat judges numbers, as written, and lets strings pass', () => {
      const int32 = {type: 'number' as const, validate: (value: number) => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31};
      const options = {...assert_, customFormats: {int32}};
      valid({format: 'int32'}, 2147483647, options);
      valid({format: 'int32'}, 2.147483647e9, options);
      invalid({format: 'int32'}, 2147483648, options);
      invalid({format: 'int32'}, 1.5, options);
      valid({format: 'int32'}, 'not a number', options);
      valid({properties: {n: {format: 'int32'}}}, {n: 'x'}, options);
      invalid({properties: {n: {format: 'int32'}}}, {n: 4294967296}, options);
      assert.equal(onlyError({format: 'int32'}, 2147483648, options).params?.['format'], 'int32');
      valid({format: 'int32'}, 2147483648, {customFormats: {int32}});
    });

    test('a NumberFormat judges the number a coercion made', () => {
      const options = {...assert_, coerceTypes: true, customFormats: {int32: {type: 'number' as const, validate: (value: number) => value < 2 ** 31}}};
      valid({properties: {n: {type: 'integer', format: 'int32'}}}, {n: '5'}, options);
      invalid({properties: {n: {type: 'integer', format: 'int32'}}}, {n: '2147483648'}, options);
    });

    test('an entry that is neither a RegExp, a function nor a NumberFormat is a SchemaError', () => {
      assert.equal(schemaError({}, {customFormats: {phone: '^\\+' as never}}).code, 'schema.option.customFormats');
      assert.equal(schemaError({}, {customFormats: [] as never}).code, 'schema.option.customFormats');
      assert.equal(schemaError({}, {customFormats: {n: {type: 'string', validate: () => true}} as never}).code, 'schema.option.customFormats');
    });
  });

  test('its name is its annotation, asserted or not, custom or not (annotations: true)', () => {
    const formatsOf = (options: CompileOptions): unknown[] | undefined => compile({properties: {at: {format: 'date'}, tel: {format: 'phone'}}}, {annotations: true, customFormats: {phone: /^\+/}, ...options}).validate({at: '2024-01-02', tel: '+1'}).annotations?.map((unit) => [unit.instanceLocation, unit.annotation]);
    assert.deepEqual(formatsOf({}), [['/at', 'date'], ['/tel', 'phone']]);
    assert.deepEqual(formatsOf(assert_), [['/at', 'date'], ['/tel', 'phone']]);
  });

  test('options.formats and options.unknownFormats take their choices only', () => {
    assert.equal(schemaError({format: 'ipv4'}, {formats: 'asert' as never}).code, 'schema.option.formats');
    assert.equal(schemaError({}, {unknownFormats: 'warn' as never}).code, 'schema.option.unknownFormats');
  });
});
