// `dependentSchemas` (2019-09 core §9.2.2.4): when the trigger property is present, its schema
// applies to the whole object, as `allOf` would. The trigger may arrive after other keys, so the
// schema runs speculatively from the object's start and counts only once the trigger turns up.

import {escapePointerToken} from '../json/pointer.js';
import {OBJECT, type CompiledKeyword, type KeywordContext, type KeywordDefinition, type Outline, type SchemaNode, type Run} from '../schema/node.js';
import {PresenceSet, Seen} from './rules/presence.js';
import {expectSchemaMap, isSchema} from './rules/expect.js';

export interface DependentSchemas {
  readonly triggers: PresenceSet;
  readonly nodes: readonly SchemaNode[];
  readonly paths: readonly string[];
}

export class DependentSchemasState {
  readonly seen = new Seen();
  readonly runs: Run[] = [];
}

export function compileDependentSchemas(entries: [string, unknown][], context: KeywordContext, keywordPath: string): DependentSchemas | undefined {
  if (entries.length === 0) return undefined;
  const nodes: SchemaNode[] = [];
  const paths: string[] = [];
  for (const [trigger, schema] of entries) {
    const path = '/' + escapePointerToken(trigger);
    if (!isSchema(schema)) throw context.fail('must be an object whose values are schemas', path);
    nodes.push(context.subschema(schema, path));
    paths.push(keywordPath + path);
  }
  return {triggers: new PresenceSet(entries.map(([trigger]) => trigger)), nodes, paths};
}

export function beginDependentSchemas(run: Run, keyword: CompiledKeyword, value: DependentSchemas, state: DependentSchemasState): void {
  for (let i = 0; i < value.nodes.length; i++) {
    state.runs[i] = run.applyInPlace(value.nodes[i], keyword, i, value.paths[i]);
    if (run.settled) return;
  }
}

export function keyDependentSchemas(run: Run, value: DependentSchemas, state: DependentSchemasState, name: string): void {
  if (!value.triggers.includes(name)) return;
  value.triggers.see(state.seen, name);
  const sub = state.runs[value.triggers.names.indexOf(name)];
  if (sub !== undefined && sub.settled && sub.failed) run.failWith(sub);
}

export function resultDependentSchemas(run: Run, value: DependentSchemas, state: DependentSchemasState, child: Run): void {
  if (child.failed && value.triggers.has(state.seen, value.triggers.names[child.slot])) run.failWith(child);
}

export function endDependentSchemas(run: Run, value: DependentSchemas, state: DependentSchemasState): void {
  for (let i = 0; i < value.nodes.length; i++) {
    if (value.triggers.has(state.seen, value.triggers.names[i])) run.mergeAnnotations(state.runs[i]);
  }
}

/** The text checker's terms (KeywordDefinition.outline): a present trigger's schema applies. */
export function outlineDependentSchemas(value: DependentSchemas, outline: Outline): void {
  value.nodes.forEach((node, index) => outline.when(value.triggers.names[index], node));
}

const newState = (): DependentSchemasState => new DependentSchemasState();

export const dependentSchemas: KeywordDefinition<DependentSchemas> = {
  name: 'dependentSchemas',
  annotatesInPlace: true,
  speculative: () => true,
  subschemas: 'schemaMap',
  compile(value, context) {
    expectSchemaMap(value, context);
    return compileDependentSchemas(Object.entries(value), context, '/dependentSchemas');
  },
  outline: (keyword, outline) => outlineDependentSchemas(keyword.value, outline),
  begin(run, keyword) {
    if (run.kind === OBJECT) beginDependentSchemas(run, keyword, keyword.value, run.state(keyword, newState));
  },
  key(run, keyword, name) {
    keyDependentSchemas(run, keyword.value, run.state(keyword, newState), name);
  },
  result(run, keyword, child) {
    resultDependentSchemas(run, keyword.value, run.state(keyword, newState), child);
  },
  end(run, keyword) {
    if (run.kind === OBJECT) endDependentSchemas(run, keyword.value, run.state(keyword, newState));
  },
};
