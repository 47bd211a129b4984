// Drafts are tables (src/schema/node.ts DraftTable): which keywords exist, in which order they run, and
// which module implements each. Adding a draft is adding a table here.

import {additionalProperties} from './additionalProperties.js';
import {allOf} from './allOf.js';
import {
  anchor, comment, contentEncoding, contentMediaType, contentSchema, defaultKeyword, definitions, defs, deprecated, description, draft4Id,
  dynamicAnchor, examples, id, otherwise, readOnly, recursiveAnchor, schemaKeyword, then, title, writeOnly,
} from './annotations.js';
import {anyOf} from './anyOf.js';
import {contains, legacyContains, maxContains, minContains} from './contains.js';
import {dependencies} from './dependencies.js';
import {dependentRequired} from './dependentRequired.js';
import {dependentSchemas} from './dependentSchemas.js';
import {dynamicRef} from './dynamicRef.js';
import {constKeyword, enumKeyword} from './enum.js';
import {format} from './format.js';
import {ifThenElse} from './ifThenElse.js';
import {maxItems, minItems} from './itemCount.js';
import {additionalItems, items, legacyItems, prefixItems} from './items.js';
import {not} from './not.js';
import {
  draft4ExclusiveMaximum,
  draft4ExclusiveMinimum,
  draft4Maximum,
  draft4Minimum,
  exclusiveMaximum,
  exclusiveMinimum,
  maximum,
  minimum,
  multipleOf,
} from './numeric.js';
import {oneOf} from './oneOf.js';
import {pattern} from './pattern.js';
import {patternProperties} from './patternProperties.js';
import {properties} from './properties.js';
import {maxProperties, minProperties} from './propertyCount.js';
import {propertyNames} from './propertyNames.js';
import {recursiveRef} from './recursiveRef.js';
import {ref} from './ref.js';
import {required} from './required.js';
import {maxLength, minLength} from './stringLength.js';
import {type} from './type.js';
import {unevaluatedItems} from './unevaluatedItems.js';
import {unevaluatedProperties} from './unevaluatedProperties.js';
import {uniqueItems} from './uniqueItems.js';
import type {DraftTable, KeywordDefinition} from '../schema/node.js';
import type {Draft} from '../types.js';

function table(definitions: KeywordDefinition[]): ReadonlyMap<string, KeywordDefinition> {
  return new Map(definitions.map((definition) => [definition.name, definition]));
}

// Evaluation order inside one schema object: cheap type checks first, then the rest; applicators
// whose annotations `unevaluated*` read come before them, and `unevaluated*` come last.
// Annotation keywords: compiled only to say what they annotate (annotations.ts), so their place
// in the order does not matter.
const draft4Metadata = [title, description, defaultKeyword];
const draft6Metadata = [...draft4Metadata, examples];
const draft7Metadata = [...draft6Metadata, readOnly, writeOnly, contentMediaType, contentEncoding];
const laterMetadata = [...draft7Metadata, deprecated];

const draft4Keywords = [
  schemaKeyword, draft4Id, ref, definitions,
  type, enumKeyword, multipleOf, draft4Maximum, draft4ExclusiveMaximum, draft4Minimum, draft4ExclusiveMinimum,
  maxLength, minLength, pattern, format,
  legacyItems, additionalItems, maxItems, minItems, uniqueItems,
  maxProperties, minProperties, required, properties, patternProperties, additionalProperties, dependencies,
  allOf, anyOf, oneOf, not, ...draft4Metadata,
];

const draft6Core = [
  schemaKeyword, id, ref, definitions,
  type, enumKeyword, constKeyword, multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum,
  maxLength, minLength, pattern, format,
  legacyItems, additionalItems, maxItems, minItems, uniqueItems, legacyContains,
  maxProperties, minProperties, required, propertyNames, properties, patternProperties, additionalProperties, dependencies,
  allOf, anyOf, oneOf, not,
];

const draft6Keywords = [...draft6Core, ...draft6Metadata];

const draft7Keywords = [...draft6Core, comment, ifThenElse, then, otherwise, ...draft7Metadata];

const draft201909Keywords = [
  schemaKeyword, id, anchor, recursiveAnchor, comment, ref, recursiveRef, defs, definitions,
  type, enumKeyword, constKeyword, multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum,
  maxLength, minLength, pattern, format,
  legacyItems, additionalItems, maxItems, minItems, uniqueItems, legacyContains, minContains, maxContains,
  maxProperties, minProperties, required, dependentRequired, propertyNames, properties, patternProperties, additionalProperties,
  allOf, anyOf, oneOf, not, ifThenElse, then, otherwise, dependentSchemas, contentSchema, ...laterMetadata,
  unevaluatedItems, unevaluatedProperties,
];

const draft202012Keywords = [
  schemaKeyword, id, anchor, dynamicAnchor, comment, ref, dynamicRef, defs, definitions,
  type, enumKeyword, constKeyword, multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum,
  maxLength, minLength, pattern, format,
  prefixItems, items, maxItems, minItems, uniqueItems, contains, minContains, maxContains,
  maxProperties, minProperties, required, dependentRequired, propertyNames, properties, patternProperties, additionalProperties,
  allOf, anyOf, oneOf, not, ifThenElse, then, otherwise, dependentSchemas, contentSchema, ...laterMetadata,
  unevaluatedItems, unevaluatedProperties,
];

const commonAnnotations = ['title', 'description', 'default', 'examples'];
const draft7Annotations = [...commonAnnotations, 'readOnly', 'writeOnly', 'contentMediaType', 'contentEncoding'];
const laterAnnotations = [...draft7Annotations, 'deprecated', '$vocabulary'];

const core = ['$id', '$schema', '$anchor', '$ref', '$recursiveRef', '$recursiveAnchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs', 'definitions'];
const applicator = [
  'prefixItems', 'items', 'additionalItems', 'contains', 'additionalProperties', 'properties', 'patternProperties',
  'dependentSchemas', 'propertyNames', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not',
];
const validation = [
  'type', 'const', 'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired',
];
const unevaluated = ['unevaluatedItems', 'unevaluatedProperties'];

/** A pseudo-keyword that a vocabulary set carries when the format-assertion vocabulary is on. */
export const FORMAT_ASSERTION = 'format:assert';

function vocabularies(base: string, year: '2019-09' | '2020-12'): ReadonlyMap<string, readonly string[]> {
  const map = new Map<string, readonly string[]>([
    [`${base}/vocab/core`, core],
    [`${base}/vocab/applicator`, year === '2019-09' ? [...applicator, ...unevaluated] : applicator],
    [`${base}/vocab/validation`, validation],
    [`${base}/vocab/meta-data`, ['title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples']],
    [`${base}/vocab/content`, ['contentEncoding', 'contentMediaType', 'contentSchema']],
  ]);
  if (year === '2019-09') map.set(`${base}/vocab/format`, ['format']);
  else {
    map.set(`${base}/vocab/unevaluated`, unevaluated);
    map.set(`${base}/vocab/format-annotation`, ['format']);
    map.set(`${base}/vocab/format-assertion`, ['format', FORMAT_ASSERTION]);
  }
  return map;
}

const schemaHolders = ['definitions', '$defs'];

export const draftTables: Readonly<Record<Draft, DraftTable>> = {
  draft4: {
    name: 'draft4',
    metaSchema: 'http://json-schema.org/draft-04/schema',
    identifiers: {id: 'id', hidesSiblings: '$ref', schemaHolders},
    keywords: table(draft4Keywords),
    annotations: new Set(commonAnnotations.filter((name) => name !== 'examples')),
  },
  draft6: {
    name: 'draft6',
    metaSchema: 'http://json-schema.org/draft-06/schema',
    identifiers: {id: '$id', hidesSiblings: '$ref', schemaHolders},
    keywords: table(draft6Keywords),
    annotations: new Set(commonAnnotations),
  },
  draft7: {
    name: 'draft7',
    metaSchema: 'http://json-schema.org/draft-07/schema',
    identifiers: {id: '$id', hidesSiblings: '$ref', schemaHolders},
    keywords: table(draft7Keywords),
    annotations: new Set(draft7Annotations),
  },
  'draft2019-09': {
    name: 'draft2019-09',
    metaSchema: 'https://json-schema.org/draft/2019-09/schema',
    identifiers: {id: '$id', anchor: '$anchor', recursiveAnchor: '$recursiveAnchor', schemaHolders},
    keywords: table(draft201909Keywords),
    annotations: new Set(laterAnnotations),
    vocabularies: vocabularies('https://json-schema.org/draft/2019-09', '2019-09'),
  },
  'draft2020-12': {
    name: 'draft2020-12',
    metaSchema: 'https://json-schema.org/draft/2020-12/schema',
    identifiers: {id: '$id', anchor: '$anchor', dynamicAnchor: '$dynamicAnchor', schemaHolders},
    keywords: table(draft202012Keywords),
    annotations: new Set(laterAnnotations),
    vocabularies: vocabularies('https://json-schema.org/draft/2020-12', '2020-12'),
  },
};

/**
 * The keywords that say which dialect a schema is written in, read before any table is chosen
 * (2020-12 core §8.1.1, §8.1.2): the same in every draft.
 */
export const dialectKeywords = {schema: '$schema', vocabulary: '$vocabulary'} as const;

/** The draft a `$schema` URI names, if it is one of the official meta-schemas. */
export function draftFromMetaSchema(uri: string): Draft | undefined {
  const normalized = uri.replace(/#$/, '').replace(/^https?:/, '');
  for (const draft of Object.values(draftTables)) {
    if (draft.metaSchema.replace(/^https?:/, '') === normalized) return draft.name;
  }
  return undefined;
}
