// `dependencies` (draft 4 validation §5.4.5, until draft 7): one keyword for both dependency forms.
// An array value behaves as `dependentRequired`, a schema value as `dependentSchemas`.

import {OBJECT, type KeywordDefinition} from '../schema/node.js';
import {compileDependentRequired} from './dependentRequired.js';
import {
  DependentSchemasState,
  beginDependentSchemas,
  compileDependentSchemas,
  endDependentSchemas,
  keyDependentSchemas,
  outlineDependentSchemas,
  resultDependentSchemas,
  type DependentSchemas,
} from './dependentSchemas.js';
import {Seen, checkRequirements, outlineRequirements, type Requirements} from './rules/presence.js';
import {isObject} from './rules/expect.js';

interface DependenciesValue {
  readonly required: Requirements | undefined;
  readonly schemas: DependentSchemas | undefined;
}

class DependenciesState extends DependentSchemasState {
  readonly required = new Seen();
}

const newState = (): DependenciesState => new DependenciesState();

export const dependencies: KeywordDefinition<DependenciesValue> = {
  name: 'dependencies',
  annotatesInPlace: true,
  speculative: () => true,
  subschemas: 'schemaOrStringArrayMap',
  compile(value, context) {
    if (!isObject(value)) throw context.fail('must be an object whose values are schemas or arrays of strings');
    const entries = Object.entries(value);
    const arrays = entries.filter(([, dependency]) => Array.isArray(dependency));
    const schemas = entries.filter(([, dependency]) => !Array.isArray(dependency));
    const required = compileDependentRequired(arrays, context);
    const dependentSchemas = compileDependentSchemas(schemas, context, '/dependencies');
    return required === undefined && dependentSchemas === undefined ? undefined : {required, schemas: dependentSchemas};
  },
  outline(keyword, outline) {
    const {required, schemas} = keyword.value;
    if (required !== undefined) outlineRequirements(required, outline);
    if (schemas !== undefined) outlineDependentSchemas(schemas, outline);
  },
  begin(run, keyword) {
    if (run.kind === OBJECT && keyword.value.schemas !== undefined) beginDependentSchemas(run, keyword, keyword.value.schemas, run.state(keyword, newState));
  },
  key(run, keyword, name) {
    const state = run.state(keyword, newState);
    const {required, schemas} = keyword.value;
    if (required !== undefined && required.presence.includes(name)) required.presence.see(state.required, name);
    if (schemas !== undefined) keyDependentSchemas(run, schemas, state, name);
  },
  result(run, keyword, child) {
    resultDependentSchemas(run, keyword.value.schemas!, run.state(keyword, newState), child);
  },
  end(run, keyword) {
    if (run.kind !== OBJECT) return;
    const state = run.state(keyword, newState);
    if (keyword.value.required !== undefined) checkRequirements(run, keyword, keyword.value.required, state.required);
    if (!run.settled && keyword.value.schemas !== undefined) endDependentSchemas(run, keyword.value.schemas, state);
  },
};
