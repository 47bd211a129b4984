// A large schema of the kind an API description bundles (OpenAPI components, a cloud provider's
// resource types): hundreds of definitions with documented properties, patterns, formats, enums,
// nested objects, arrays of references and cycles between definitions. Deterministic, so a
// benchmark and a test compile the same schema. Used by benchmarks/compile.ts and
// test/hostile-schemas.test.ts.

import {random as seeded} from './chunks.js';

const WORDS = [
  'the', 'resource', 'identifier', 'of', 'a', 'request', 'when', 'set', 'is', 'used', 'by', 'server', 'client', 'account',
  'region', 'billing', 'policy', 'version', 'current', 'state', 'must', 'be', 'unique', 'within', 'project', 'value',
  'default', 'maximum', 'number', 'retries', 'before', 'operation', 'fails', 'time', 'seconds', 'label', 'applied', 'to',
  'every', 'instance', 'created', 'from', 'this', 'template', 'deprecated', 'use', 'instead', 'optional', 'field',
];
const FORMATS = ['date-time', 'email', 'uri', 'uuid', 'ipv4', 'hostname'];
const PATTERNS = ['^[a-z][a-z0-9-]{2,62}$', '^[A-Z]{2}$', '^arn:[a-z0-9-]+:[a-z0-9-]*:[0-9]{12}:.+$', '^v[0-9]+(\\.[0-9]+){0,2}$', '^[0-9a-f]{32}$'];

export interface LargeSchema {
  schema: Record<string, unknown>;
  /** Bytes of its JSON text. */
  bytes: number;
  definitions: number;
}

/**
 * A 2020-12 schema of about `targetBytes` of JSON: `$defs` of resource types, each an object of
 * 8–30 documented properties, some of them references to other definitions (earlier ones, and
 * some later ones, so that definitions refer to each other in cycles). The root lists every
 * definition as an optional property.
 */
export function largeSchema(targetBytes = 2 * 1024 * 1024, seed = 2026): LargeSchema {
  const random = seeded(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const sentence = (): string => Array.from({length: between(6, 24)}, () => pick(WORDS)).join(' ') + '.';
  const definitions: Record<string, unknown> = {};
  const names: string[] = [];
  let bytes = 0;

  const reference = (): Record<string, unknown> => {
    // Mostly backwards, sometimes forwards (resolved once the definition exists): cycles.
    const forward = random() < 0.1;
    const index = forward ? names.length + between(1, 20) : between(0, Math.max(0, names.length - 1));
    return {$ref: `#/$defs/Resource${index}`};
  };
  const scalar = (): Record<string, unknown> => {
    const description = sentence();
    switch (between(0, 6)) {
      case 0:
        return {type: 'string', description, maxLength: between(16, 4096)};
      case 1:
        return {type: 'string', description, pattern: pick(PATTERNS)};
      case 2:
        return {type: 'string', description, format: pick(FORMATS)};
      case 3:
        return {type: 'integer', description, minimum: 0, maximum: between(10, 100_000)};
      case 4:
        return {type: 'number', description, exclusiveMinimum: 0, multipleOf: 0.01};
      case 5:
        return {type: 'boolean', description, default: random() < 0.5};
      default:
        return {description, enum: Array.from({length: between(2, 12)}, (_, index) => `${pick(WORDS)}_${index}`)};
    }
  };
  const property = (depth: number): Record<string, unknown> => {
    const roll = random();
    if (names.length > 0 && roll < 0.15) return reference();
    if (names.length > 0 && roll < 0.22) return {type: 'array', description: sentence(), items: reference(), maxItems: between(1, 1000), uniqueItems: random() < 0.3};
    if (names.length > 1 && roll < 0.26) return {description: sentence(), oneOf: [reference(), reference(), {type: 'null'}]};
    if (depth < 2 && roll < 0.33) return objectSchema(depth + 1, between(3, 8));
    if (roll < 0.37) return {type: 'object', description: sentence(), additionalProperties: {type: 'string', maxLength: 256}, maxProperties: 64};
    return scalar();
  };
  const objectSchema = (depth: number, count: number): Record<string, unknown> => {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < count; index++) properties[`${pick(WORDS)}${index}`] = property(depth);
    const keys = Object.keys(properties);
    return {
      type: 'object',
      description: sentence(),
      properties,
      required: keys.filter(() => random() < 0.3),
      additionalProperties: random() < 0.7 ? false : {type: 'string'},
    };
  };

  while (bytes < targetBytes) {
    const name = `Resource${names.length}`;
    const definition = {title: name, ...objectSchema(0, between(8, 30))};
    bytes += JSON.stringify(definition).length + name.length + 4;
    definitions[name] = definition;
    names.push(name);
  }
  // Forward references past the last definition point at real ones: the last 20 get a plain schema.
  for (let index = names.length; index < names.length + 21; index++) definitions[`Resource${index}`] = {type: 'object', description: 'a placeholder'};
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://example.com/schemas/cloud-resources.json',
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name.toLowerCase(), {$ref: `#/$defs/${name}`}])),
    additionalProperties: false,
    $defs: definitions,
  };
  return {schema, bytes: JSON.stringify(schema).length, definitions: names.length};
}
