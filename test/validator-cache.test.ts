// adapters/validator-cache.ts: a schema given at each call is compiled once per schema object and
// compile options; a compiled validator is used as it is.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {validatorFor} from '../adapters/validator-cache.js';
import {compile, isValidator} from '../src/index.js';

describe('validatorFor', () => {
  it('the same schema object and options give the same validator', () => {
    const schema = {type: 'object', required: ['id']};
    assert.equal(validatorFor(schema), validatorFor(schema));
    assert.equal(validatorFor(schema, {limits: {maxDepth: 4}}), validatorFor(schema, {limits: {maxDepth: 4}}));
  });

  it('other options, another `schemas` map, or an equal but distinct schema object give another validator', () => {
    const schema = {$ref: 'https://example.com/item'};
    const items = {'https://example.com/item': {type: 'string'}};
    const numbers = {'https://example.com/item': {type: 'number'}};
    const strings = validatorFor(schema, {schemas: items});
    assert.equal(validatorFor(schema, {schemas: items}), strings);
    assert.notEqual(validatorFor(schema, {schemas: numbers}), strings);
    assert.equal(validatorFor(schema, {schemas: numbers}).validate(1).valid, true);
    assert.equal(strings.validate(1).valid, false);
    assert.notEqual(validatorFor(schema, {schemas: items, allErrors: true}), strings);
    assert.notEqual(validatorFor({$ref: 'https://example.com/item'}, {schemas: items}), strings);
  });

  it('another customFormats object gives another validator: RegExps and functions are told apart by identity', () => {
    const schema = {format: 'code'};
    const digits = validatorFor(schema, {formats: 'assert', customFormats: {code: /^[0-9]+$/}});
    const letters = validatorFor(schema, {formats: 'assert', customFormats: {code: (value: string) => /^[a-z]+$/.test(value)}});
    assert.notEqual(letters, digits);
    assert.equal(digits.validate('12').valid, true);
    assert.equal(letters.validate('12').valid, false);
  });

  it('another keywords array gives another validator, though its definitions print alike', () => {
    const schema = {check: true, errorMessage: 'no'};
    const passes = validatorFor(schema, {keywords: [{keyword: 'check', validate: () => true}]});
    const fails = validatorFor(schema, {keywords: [{keyword: 'check', validate: () => false}]});
    assert.notEqual(fails, passes);
    assert.equal(passes.validate(1).valid, true);
    assert.equal(fails.validate(1).errors[0].keyword, 'check');
    assert.equal(validatorFor(schema, {keywords: [{keyword: 'check', validate: () => false}], errorMessages: true}).validate(1).errors[0].error, 'no');
  });

  it('a compiled validator is used as it is, and refuses compile options', () => {
    const compiled = compile({type: 'string'});
    assert.equal(validatorFor(compiled), compiled);
    assert.throws(() => validatorFor(compiled, {draft: 'draft7'}), /takes no compile options \(got draft\)/);
  });

  it('boolean schemas compile', () => {
    assert.equal(validatorFor(false).validate(1).valid, false);
    assert.equal(validatorFor(true).validate(1).valid, true);
  });

  it('a schema is not taken for a validator, even with a property named like a method', () => {
    assert.equal(isValidator({session: {type: 'object'}, validate: true}), false);
    assert.equal(isValidator(compile({})), true);
  });

  it('a validator is known by its brand, not by its methods', () => {
    const compiled = compile({type: 'string'});
    const lookalike = {draft: compiled.draft, allErrors: false, validate: compiled.validate, validateText: compiled.validateText, parseText: compiled.parseText, session: compiled.session};
    assert.equal(isValidator(lookalike), false);
    assert.throws(() => validatorFor(lookalike), TypeError);
    // The registered symbol: a validator from another copy of the package (its build beside its source) is one too.
    assert.equal(isValidator(Object.assign(Object.create(null) as object, {[Symbol.for('stream-schema.validator')]: true})), true);
  });

  it('a value that is neither a schema nor a validator is a TypeError, never the schema of no keywords', () => {
    class Shape {
      type = 'string';
    }
    const notSchemas: Array<[string, unknown]> = [
      ['a function', () => true],
      ['an ajv-like validate function', Object.assign((data: unknown) => typeof data === 'string', {schema: {type: 'string'}, errors: null})],
      ['a class instance', new Shape()],
      ['a Map', new Map([['type', 'string']])],
      ['a Date', new Date(0)],
      ['an object of methods', {validate: () => true}],
    ];
    for (const [what, value] of notSchemas) {
      assert.throws(() => validatorFor(value), TypeError, what);
      assert.throws(() => compile(value), TypeError, what);
    }
  });

  it('compile() refuses a validator, which it would otherwise read as the schema {}', () => {
    const compiled = compile({type: 'string'});
    assert.throws(() => compile(compiled), /a validator that compile\(\) made already/);
  });

  it('only compile options are read from a door\'s options; beside a validator they are refused', () => {
    const compiled = compile({type: 'string'});
    const doorOptions = {parse: true, onInvalid: 'skip', maxLineLength: 10};
    assert.equal(validatorFor(compiled, doorOptions as never), compiled);
    assert.throws(() => validatorFor(compiled, {...doorOptions, allErrors: true} as never), /got allErrors/);
    assert.equal(validatorFor({type: 'string'}, {...doorOptions, allErrors: true} as never).allErrors, true);
  });
});
