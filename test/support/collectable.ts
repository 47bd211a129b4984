// What test/gc.test.ts runs in a child process started with --expose-gc: each way of using a
// validator, and which of the objects it compiled are still alive once it is dropped.

import {setImmediate as nextTask} from 'node:timers/promises';
import {none} from 'stream-chain/defs.js';
import {tokenConsumer} from '../../adapters/stream-json.js';
import {compile} from '../../src/index.js';
import type {CompileOptions, Validator} from '../../src/types.js';

/**
 * A schema that reaches every shared mechanism the checkers and the evaluator use: containers,
 * `$ref` and `$dynamicRef` (dynamic scopes), `uniqueItems` (the fingerprint node), `const` of an
 * object (literal outlines), `patternProperties` (key plans), a format.
 */
function treeSchema(): object {
  return {
    $id: 'https://example.com/tree',
    $dynamicAnchor: 'node',
    type: 'object',
    required: ['name'],
    properties: {
      name: {type: 'string', format: 'hostname'},
      tags: {type: 'array', uniqueItems: true, items: {type: 'string'}},
      origin: {const: {x: 0, y: 0}},
      children: {type: 'array', items: {$dynamicRef: '#node'}},
      pad: {type: 'string'},
    },
    patternProperties: {'^x-': {$ref: '#/$defs/extension'}},
    $defs: {extension: {type: ['string', 'number']}},
  };
}

const tree = {name: 'example.com', tags: ['a', 'b'], origin: {x: 0, y: 0}, children: [{name: 'b.example.com', tags: []}], 'x-n': 1};
const text = JSON.stringify(tree);
/** Long enough for a session to judge member values apart (memberValues.worthIt). */
const longText = JSON.stringify({...tree, pad: 'p'.repeat(4096)});
const invalidText = JSON.stringify({...tree, tags: ['a', 'a']});

interface Use {
  readonly options?: CompileOptions;
  use(validator: Validator): void;
}

function throughSession(validator: Validator, input: string | Uint8Array, parse = false): void {
  const session = validator.session({parse});
  session.write(input);
  session.end();
}

export const uses: Readonly<Record<string, Use>> = {
  validate: {
    use(validator) {
      validator.validate(tree);
      validator.validate(JSON.parse(invalidText));
    },
  },
  validateText: {
    use(validator) {
      validator.validateText(text);
      validator.validateText(Buffer.from(longText));
      validator.validateText(invalidText);
    },
  },
  parseText: {
    use(validator) {
      validator.parseText(text);
      validator.parseText(invalidText);
    },
  },
  session: {
    use(validator) {
      throughSession(validator, Buffer.from(text));
      throughSession(validator, invalidText);
    },
  },
  'session judging member values apart': {
    use(validator) {
      throughSession(validator, Buffer.from(longText));
    },
  },
  'session with parse: true': {
    use(validator) {
      throughSession(validator, text, true);
    },
  },
  'session dropped mid-document': {
    use(validator) {
      validator.session().write(longText.slice(0, 3000));
    },
  },
  tokenConsumer: {
    use(validator) {
      const consume = tokenConsumer(validator);
      consume({name: 'startObject'});
      consume({name: 'keyValue', value: 'tags'});
      consume({name: 'startArray'});
      consume({name: 'stringValue', value: 'a'});
      consume({name: 'endArray'});
      consume({name: 'endObject'});
      consume(none);
    },
  },
  'allErrors: true': {
    options: {allErrors: true},
    use(validator) {
      validator.validate(JSON.parse(invalidText));
      validator.validateText(invalidText);
      throughSession(validator, longText);
    },
  },
};

/**
 * The compiled schema behind a validator. The validator object alone proves nothing: a leak can
 * keep the compiled nodes while the small object wrapping them is collected.
 */
function compiledRoot(validator: Validator): object {
  const root = (validator as unknown as {parts?: {root?: object}}).parts?.root;
  if (typeof root !== 'object' || root === null) throw new Error('CompiledValidator.parts.root moved: watch the compiled schema where it is now');
  return root;
}

/** Compile, use and drop `cycles` validators, watching each one's objects; returns their labels. */
function useAndDrop(registry: FinalizationRegistry<string>, {options, use}: Use, cycles: number): string[] {
  const labels: string[] = [];
  for (let cycle = 0; cycle < cycles; cycle++) {
    const schema = treeSchema();
    const validator = compile(schema, options);
    use(validator);
    const watched: [string, object][] = [
      ['validator', validator],
      ['schema document', schema],
      ['compiled schema', compiledRoot(validator)],
    ];
    for (const [what, target] of watched) {
      const label = `${what} #${cycle}`;
      registry.register(target, label);
      labels.push(label);
    }
  }
  return labels;
}

/** The objects of validators used as `uses[name]` says that outlive garbage collection. */
export async function survivors(name: string): Promise<string[]> {
  const collect = (globalThis as {gc?: () => void}).gc;
  if (collect === undefined) throw new Error('survivors() needs node --expose-gc');
  const finalized = new Set<string>();
  const registry = new FinalizationRegistry<string>((label) => finalized.add(label));
  const labels = useAndDrop(registry, uses[name]!, 3);
  // Finalizers run as tasks after a collection, so each round yields to the event loop.
  for (let round = 0; round < 20 && finalized.size < labels.length; round++) {
    collect();
    await nextTask();
  }
  return labels.filter((label) => !finalized.has(label));
}
