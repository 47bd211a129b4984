// Every rule of ../shared/spec/object-validation.md, one test each, named after the rule.
// Each check runs in value mode, in validateText and through a session fed 1 byte at a time.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile} from '../src/index.js';
import type {CompileOptions} from '../src/types.js';
import {byteChunks, feed} from './support/chunks.js';

const encoder = new TextEncoder();

function check(schema: unknown, data: unknown, valid: boolean, options: CompileOptions = {}): void {
  const validator = compile(schema, options);
  const text = JSON.stringify(data);
  const verdicts = {
    value: validator.validate(data).valid,
    text: validator.validateText(text).valid,
    bytes: feed(validator, byteChunks(encoder.encode(text))).valid,
  };
  assert.deepEqual(verdicts, {value: valid, text: valid, bytes: valid}, `${JSON.stringify(schema)} on ${text}`);
}

const compliant = (schema: unknown, data: unknown, options?: CompileOptions) => check(schema, data, true, options);
const notCompliant = (schema: unknown, data: unknown, options?: CompileOptions) => check(schema, data, false, options);

describe('1. What the service does', () => {
  test('1.3 boolean true accepts everything; boolean false accepts nothing', () => {
    for (const data of [null, 1, 'a', [], {}]) {
      compliant(true, data);
      notCompliant(false, data);
    }
  });
  test('1.4 a keyword that does not apply to the type of the instance is satisfied', () => {
    compliant({required: ['a'], maxProperties: 0, propertyNames: false}, 'not an object');
    compliant({pattern: '^x'}, 12);
  });
  test('1.5 the instance is compliant only when every keyword is satisfied', () => {
    notCompliant({type: 'object', required: ['a'], maxProperties: 1}, {a: 1, b: 2});
    compliant({type: 'object', required: ['a'], maxProperties: 2}, {a: 1, b: 2});
  });
});

describe('4.1.1 properties', () => {
  const schema = {type: 'object', properties: {name: {type: 'string'}, age: {type: 'integer'}}};
  test('a property listed in properties validates against its schema', () => {
    compliant(schema, {name: 'Ada'});
    notCompliant(schema, {name: 7});
  });
  test('omitting listed properties is valid unless required names them', () => {
    compliant(schema, {age: 3});
    notCompliant({...schema, required: ['name']}, {age: 3});
  });
  test('an empty object is valid against a schema with only type object and properties', () => {
    compliant(schema, {});
  });
  test('extra properties are valid unless additionalProperties or unevaluatedProperties restricts them', () => {
    compliant(schema, {extra: true});
    notCompliant({...schema, additionalProperties: false}, {extra: true});
    notCompliant({...schema, unevaluatedProperties: false}, {extra: true});
  });
  test('a value of the wrong type for its property schema is not compliant', () => {
    notCompliant(schema, {age: '3'});
    notCompliant(schema, {age: 3.5});
  });
});

describe('4.1.2 patternProperties', () => {
  test('regular expressions are not anchored; they match anywhere in the name', () => {
    notCompliant({patternProperties: {id: {type: 'integer'}}}, {user_id_x: 'no'});
    compliant({patternProperties: {'^id$': {type: 'integer'}}}, {user_id_x: 'no'});
  });
  test('a property whose name matches no expression is ignored by this keyword', () => {
    compliant({patternProperties: {'^x-': {type: 'string'}}}, {y: 1});
  });
  test('a property that matches an expression with a violating value makes the instance not compliant', () => {
    notCompliant({patternProperties: {'^x-': {type: 'string'}}}, {'x-a': 1});
  });
  test('expressions are ECMA-262 with the u flag', () => {
    compliant({patternProperties: {'^\\p{L}+$': {type: 'integer'}}}, {'ünï': 1});
    notCompliant({patternProperties: {'^\\p{L}+$': {type: 'integer'}}}, {'ünï': 'x'});
  });
});

describe('4.1.3 additionalProperties', () => {
  test('it sees only properties declared in the same schema object as itself', () => {
    compliant({properties: {a: {}}, additionalProperties: false}, {a: 1});
    notCompliant({properties: {a: {}}, additionalProperties: false}, {b: 1});
  });
  test('properties declared in allOf subschemas are therefore treated as additional', () => {
    notCompliant({allOf: [{properties: {a: {}}}], additionalProperties: false}, {a: 1});
  });
  test('to extend a closed schema, redeclare the inherited names with true in the extending schema', () => {
    const base = {properties: {a: {type: 'string'}}};
    const extended = {allOf: [base], properties: {a: true, b: {type: 'number'}}, additionalProperties: false};
    compliant(extended, {a: 'x', b: 1});
    notCompliant(extended, {a: 1, b: 1});
    notCompliant(extended, {c: 1});
  });
  test('when combined with properties and patternProperties, it applies only to names matched by neither', () => {
    const schema = {properties: {a: {}}, patternProperties: {'^x-': {}}, additionalProperties: {type: 'boolean'}};
    compliant(schema, {a: 1, 'x-y': 2, other: true});
    notCompliant(schema, {other: 3});
  });
});

describe('4.1.4 unevaluatedProperties', () => {
  test('introduced in draft 2019-09', () => {
    notCompliant({unevaluatedProperties: false}, {a: 1}, {draft: 'draft2019-09'});
    compliant({unevaluatedProperties: false}, {a: 1}, {draft: 'draft7'});
  });
  test('the allowed set is every property successfully validated by the schema and its applicable subschemas', () => {
    const schema = {allOf: [{properties: {a: {}}}], anyOf: [{properties: {b: {}}}, {properties: {c: {}}}], unevaluatedProperties: false};
    compliant(schema, {a: 1, b: 2, c: 3});
    notCompliant(schema, {a: 1, d: 4});
  });
  test('a then subschema contributes its properties only when its if validated', () => {
    const schema = {
      if: {properties: {kind: {const: 'card'}}, required: ['kind']},
      then: {properties: {number: {type: 'string'}}},
      properties: {kind: {}},
      unevaluatedProperties: false,
    };
    compliant(schema, {kind: 'card', number: '4111'});
    notCompliant(schema, {kind: 'cash', number: '4111'});
  });
  test('with value false, any property outside the allowed set makes the instance not compliant', () => {
    notCompliant({properties: {a: {}}, unevaluatedProperties: false}, {a: 1, b: 2});
  });
  test('annotations of failed subschemas do not count', () => {
    notCompliant({anyOf: [{properties: {a: {type: 'string'}}}, true], unevaluatedProperties: false}, {a: 1});
  });
});

describe('4.1.5 required', () => {
  test('properties are optional unless listed; the array has zero or more unique strings', () => {
    compliant({required: []}, {});
    compliant({required: ['a']}, {a: 1});
    notCompliant({required: ['a', 'b']}, {a: 1});
  });
  test('a property whose value is null is present, not absent; it is checked against the property schema', () => {
    compliant({required: ['a']}, {a: null});
    notCompliant({required: ['a'], properties: {a: {type: 'string'}}}, {a: null});
  });
  test('a missing required property makes the instance not compliant', () => {
    notCompliant({required: ['id']}, {name: 'x'});
  });
});

describe('4.1.6 propertyNames', () => {
  test('introduced in draft 6', () => {
    notCompliant({propertyNames: {maxLength: 2}}, {abc: 1}, {draft: 'draft6'});
    compliant({propertyNames: {maxLength: 2}}, {abc: 1}, {draft: 'draft4'});
  });
  test('validates every key regardless of its value; it is implicitly a string schema', () => {
    compliant({propertyNames: {pattern: '^[a-z]+$'}}, {abc: {deep: [1]}});
    compliant({propertyNames: {maximum: 1}}, {'100': 1});
  });
  test('a key that does not match the schema makes the instance not compliant', () => {
    notCompliant({propertyNames: {pattern: '^[a-z]+$'}}, {ABC: 1});
  });
});

describe('4.1.7 size', () => {
  test('the property count must be between minProperties and maxProperties', () => {
    compliant({minProperties: 1, maxProperties: 2}, {a: 1});
    compliant({minProperties: 1, maxProperties: 2}, {a: 1, b: 2});
  });
  test('a count outside the range is not compliant', () => {
    notCompliant({minProperties: 1}, {});
    notCompliant({maxProperties: 1}, {a: 1, b: 2});
  });
});

describe('4.1.8 dependentRequired', () => {
  const schema = {dependentRequired: {card: ['billing']}};
  test('when the trigger property is present, all listed properties must be present', () => {
    notCompliant(schema, {card: 1});
    compliant(schema, {card: 1, billing: 2});
  });
  test('the dependency is one-way: a dependent property without its trigger is valid', () => {
    compliant(schema, {billing: 2});
  });
  test('both directions are expressed by listing each property as the trigger of the other', () => {
    const both = {dependentRequired: {card: ['billing'], billing: ['card']}};
    notCompliant(both, {billing: 2});
    compliant(both, {billing: 2, card: 1});
  });
});

describe('4.1.9 dependentSchemas', () => {
  const schema = {dependentSchemas: {card: {required: ['billing'], properties: {billing: {type: 'string'}}}}};
  test('when the trigger is present, the paired schema applies as allOf applies a schema', () => {
    notCompliant(schema, {card: 1});
    notCompliant(schema, {card: 1, billing: 2});
    compliant(schema, {card: 1, billing: 'addr'});
    notCompliant(schema, {billing: 2, card: 1});
  });
  test('when the trigger is absent, the paired schema is not applied', () => {
    compliant(schema, {billing: 2});
  });
  test('a property named in the paired schema then counts only as an ordinary additional property', () => {
    const closed = {...schema, properties: {card: {}}, unevaluatedProperties: false};
    notCompliant(closed, {billing: 'x'});
    compliant(closed, {card: 1, billing: 'x'});
  });
});

describe('4.1.10 if/then/else', () => {
  const schema = {if: {required: ['a']}, then: {required: ['b']}, else: {required: ['c']}};
  test('if valid, then valid: valid', () => compliant(schema, {a: 1, b: 1}));
  test('if valid, then invalid: invalid', () => notCompliant(schema, {a: 1}));
  test('if invalid, else valid: valid', () => compliant(schema, {c: 1}));
  test('if invalid, else invalid: invalid', () => notCompliant(schema, {d: 1}));
  test('if absent: then and else are not applied', () => compliant({then: false, else: false}, {}));
  test('a missing then or else behaves as true', () => {
    compliant({if: {required: ['a']}, else: {required: ['c']}}, {a: 1});
    compliant({if: {required: ['a']}, then: {required: ['b']}}, {c: 1});
  });
  test('then and else without if are ignored', () => compliant({then: false, else: false}, {x: 1}));
  test('an if that does not require its property is satisfied when it is absent; default does not change this', () => {
    const loose = {if: {properties: {kind: {const: 'a', default: 'b'}}}, then: {required: ['x']}};
    notCompliant(loose, {});
    compliant(loose, {kind: 'b'});
  });
  test('several if/then pairs inside allOf select among alternatives; a pair without required is the default', () => {
    const schema = {
      allOf: [
        {if: {properties: {kind: {const: 'a'}}, required: ['kind']}, then: {required: ['a']}},
        {if: {properties: {kind: {const: 'b'}}, required: ['kind']}, then: {required: ['b']}},
        {if: {properties: {kind: {const: 'a'}}}, then: {}, else: {}},
      ],
    };
    compliant(schema, {kind: 'a', a: 1});
    notCompliant(schema, {kind: 'a', b: 1});
    notCompliant(schema, {kind: 'b', a: 1});
    compliant(schema, {kind: 'c'});
  });
  test('introduced in draft 7: ignored before', () => {
    compliant({if: true, then: false}, 1, {draft: 'draft6'});
    notCompliant({if: true, then: false}, 1, {draft: 'draft7'});
  });
});

describe('4.1.11 implication (used before draft 7)', () => {
  const requiresB = {anyOf: [{not: {required: ['a']}}, {required: ['b']}]};
  test('if A then B is anyOf of the negation of A (A requiring its property) and B', () => {
    compliant(requiresB, {}, {draft: 'draft6'});
    compliant(requiresB, {a: 1, b: 1}, {draft: 'draft6'});
    notCompliant(requiresB, {a: 1}, {draft: 'draft6'});
  });
  test('if/else and if/then/else are combinations of such implications', () => {
    const ifThenElse = {allOf: [requiresB, {anyOf: [{required: ['a']}, {required: ['c']}]}]};
    compliant(ifThenElse, {a: 1, b: 1}, {draft: 'draft4'});
    compliant(ifThenElse, {c: 1}, {draft: 'draft4'});
    notCompliant(ifThenElse, {d: 1}, {draft: 'draft4'});
  });
  test('named conditions are kept in $defs and applied with $ref inside allOf', () => {
    const schema = {
      $defs: {cardNeedsBilling: {anyOf: [{not: {required: ['card']}}, {required: ['billing']}]}},
      allOf: [{$ref: '#/$defs/cardNeedsBilling'}],
    };
    notCompliant(schema, {card: 1});
    compliant(schema, {card: 1, billing: 1});
  });
});

describe('7. Errors: each condition is not compliant', () => {
  test('instance type differs from type', () => {
    notCompliant({type: 'object'}, 'x');
    notCompliant({type: 'object'}, []);
  });
  test('a property value violates its property schema or a matching pattern schema', () => {
    notCompliant({properties: {a: {type: 'string'}}}, {a: 1});
    notCompliant({patternProperties: {a: {type: 'string'}}}, {ab: 1});
  });
  test('a property not allowed by additionalProperties or unevaluatedProperties is present', () => {
    notCompliant({additionalProperties: false}, {a: 1});
    notCompliant({unevaluatedProperties: false}, {a: 1});
  });
  test('a required property is missing, or is present with null where another type is required', () => {
    notCompliant({required: ['a']}, {});
    notCompliant({required: ['a'], properties: {a: {type: 'integer'}}}, {a: null});
  });
  test('a property name violates propertyNames', () => notCompliant({propertyNames: {minLength: 3}}, {ab: 1}));
  test('property count is outside minProperties to maxProperties', () => notCompliant({minProperties: 2, maxProperties: 3}, {a: 1}));
  test('a dependentRequired trigger is present and a listed property is missing', () => notCompliant({dependentRequired: {a: ['b']}}, {a: 1}));
  test('a dependentSchemas trigger is present and the paired schema fails', () => notCompliant({dependentSchemas: {a: false}}, {a: 1}));
  test('the then branch fails while if is valid, or the else branch fails while if is invalid', () => {
    notCompliant({if: true, then: false}, {});
    notCompliant({if: false, else: false}, {});
  });
});

describe('8. Limits', () => {
  test('minProperties and maxProperties are non-negative integers', () => {
    assert.throws(() => compile({minProperties: -1}), /non-negative integer/);
    assert.throws(() => compile({maxProperties: 1.5}), /non-negative integer/);
  });
});

describe('9. Versioning', () => {
  test('draft 4: required must contain at least one string', () => {
    assert.throws(() => compile({required: []}, {draft: 'draft4'}), /at least one element/);
  });
  test('draft 6: propertyNames is available', () => notCompliant({propertyNames: false}, {a: 1}, {draft: 'draft6'}));
  test('draft 7: if, then and else are available', () => notCompliant({if: true, then: false}, 1, {draft: 'draft7'}));
  test('2019-09: unevaluatedProperties, dependentRequired and dependentSchemas are available', () => {
    notCompliant({unevaluatedProperties: false}, {a: 1}, {draft: 'draft2019-09'});
    notCompliant({dependentRequired: {a: ['b']}}, {a: 1}, {draft: 'draft2019-09'});
    notCompliant({dependentSchemas: {a: false}}, {a: 1}, {draft: 'draft2019-09'});
    compliant({dependentRequired: {a: ['b']}, dependentSchemas: {a: false}}, {a: 1}, {draft: 'draft7'});
  });
  test('before 2019-09, dependencies: an array behaves as dependentRequired, a schema as dependentSchemas', () => {
    notCompliant({dependencies: {a: ['b']}}, {a: 1}, {draft: 'draft7'});
    notCompliant({dependencies: {a: {required: ['c']}}}, {a: 1}, {draft: 'draft4'});
    compliant({dependencies: {a: ['b']}}, {a: 1}, {draft: 'draft2019-09'});
  });
  test('before 2019-09, $ref makes its siblings ignored', () => {
    compliant({$defs: {}, definitions: {s: {type: 'string'}}, $ref: '#/definitions/s', maxLength: 1}, 'long', {draft: 'draft7'});
    notCompliant({$defs: {s: {type: 'string'}}, $ref: '#/$defs/s', maxLength: 1}, 'long', {draft: 'draft2019-09'});
  });
});
