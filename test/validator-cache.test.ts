// adapters/validator-cache.ts: a schema given at each call is compiled once per schema object and
// compile options; a compiled validator is used as it is.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {isValidator, validatorFor} from '../adapters/validator-cache.js';
import {compile} from '../src/index.js';

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
});
