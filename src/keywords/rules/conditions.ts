// Subschemas applied conditionally (2020-12 core §10.2.2): `if`/`then`/`else`, and the schemas of
// `dependentSchemas` (and of draft 7's `dependencies`) that apply when a property is present.
// What they share: a subschema applies at the keyword's own location, in place, but only once a
// condition is known, and the condition may be known after the subschema's events began. Told to
// both engines from one statement (the condition and its subschemas): the evaluator starts every
// subschema speculatively at `begin` and lets a result count only once its condition holds; the
// checker gets the outline's `conditional` and `when`.

import {escapePointerToken} from '../../json/pointer.js';
import {OBJECT, type CompiledKeyword, type KeywordContext, type KeywordDefinition, type Run, type SchemaNode} from '../../schema/node.js';
import {compileSchema, isSchema} from './expect.js';
import {PresenceSet, Seen, checkRequirements, outlineRequirements, type Requirements} from './presence.js';

export interface Conditional {
  readonly condition: SchemaNode;
  readonly then: SchemaNode | undefined;
  readonly otherwise: SchemaNode | undefined;
}

const IF = 0;
const THEN = 1;
const ELSE = 2;

class ConditionalState {
  condition: Run | undefined;
  then: Run | undefined;
  otherwise: Run | undefined;
}

const newConditionalState = (): ConditionalState => new ConditionalState();

/** The branch that counts once the condition has settled. */
function chosen(state: ConditionalState): Run | undefined {
  return state.condition!.failed ? state.otherwise : state.then;
}

/** The condition has settled: drop the losing branch, and fail now if the winner already failed. */
function decide(run: Run, state: ConditionalState): void {
  const loser = state.condition!.failed ? state.then : state.otherwise;
  loser?.abandon();
  const winner = chosen(state);
  if (winner !== undefined && winner.settled && winner.failed) run.failWith(winner);
}

/**
 * `name` holds the condition; the siblings `thenName` and `elseName` hold what applies when it
 * passes and when it fails (§10.2.2.1-3). They start together on the same events; the branch not
 * chosen is abandoned and its errors are never reported. The condition's errors never are either.
 */
export function conditional(name: string, thenName: string, elseName: string): KeywordDefinition<Conditional> {
  const paths = ['/' + name, '/' + thenName, '/' + elseName];
  return {
    name,
    annotatesInPlace: true,
    startsRunsOnScalars: true,
    discardsErrors: (slot) => slot === IF,
    speculative: (slot) => slot !== IF,
    subschemas: 'schema',
    compile(value, context) {
      return {
        condition: compileSchema(value, context),
        then: context.schema[thenName] === undefined ? undefined : context.sibling(thenName),
        otherwise: context.schema[elseName] === undefined ? undefined : context.sibling(elseName),
      };
    },
    outline: (keyword, outline) => outline.conditional(keyword.value.condition, keyword.value.then, keyword.value.otherwise),
    begin(run, keyword) {
      const state = run.state(keyword, newConditionalState);
      const {condition, then, otherwise} = keyword.value;
      state.condition = run.applyInPlace(condition, keyword, IF, paths[IF]!);
      if (then !== undefined && !run.settled) state.then = run.applyInPlace(then, keyword, THEN, paths[THEN]!);
      if (otherwise !== undefined && !run.settled) state.otherwise = run.applyInPlace(otherwise, keyword, ELSE, paths[ELSE]!);
      if (!run.settled && state.condition.settled) decide(run, state);
    },
    result(run, keyword, child) {
      const state = run.state(keyword, newConditionalState);
      if (child.slot === IF) {
        // Runs started after the condition are not known yet while `begin` is still creating them.
        if (state.condition !== undefined) decide(run, state);
        return;
      }
      if (!child.failed || state.condition === undefined || !state.condition.settled) return;
      if (chosen(state) === child) run.failWith(child);
    },
    end(run, keyword) {
      const state = run.state(keyword, newConditionalState);
      if (state.condition === undefined || state.condition.failed) {
        if (state.otherwise !== undefined) run.mergeAnnotations(state.otherwise);
        return;
      }
      run.mergeAnnotations(state.condition);
      if (state.then !== undefined) run.mergeAnnotations(state.then);
    },
  };
}

/** Per trigger property, the schema that applies to the whole object when the trigger is present. */
export interface DependentSchemas {
  readonly triggers: PresenceSet;
  readonly nodes: readonly SchemaNode[];
  readonly paths: readonly string[];
}

/** What applies when a property is present: names that must be present too, and schemas. */
export interface Dependents {
  readonly requirements: Requirements | undefined;
  readonly schemas: DependentSchemas | undefined;
}

/** The `[trigger, schema]` entries of a keyword's object value, compiled (undefined when there are none). */
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

class DependentsState {
  /** Triggers of `schemas` seen so far. */
  readonly triggers = new Seen();
  /** Names of `requirements` seen so far. */
  readonly required = new Seen();
  /** The speculative run of each trigger's schema, by its position. */
  readonly runs: Run[] = [];
}

const newDependentsState = (): DependentsState => new DependentsState();

/**
 * A keyword whose meaning is Dependents (`dependentSchemas`, §10.2.2.4, and draft 7's
 * `dependencies`, which also holds arrays of names). The trigger may arrive after other keys, so
 * each trigger's schema runs from the object's start and counts only once its trigger turns up:
 * a failure before that is held, a failure after it fails the keyword at once.
 */
export function dependentApplicator(
  name: string,
  subschemas: 'schemaMap' | 'schemaOrStringArrayMap',
  compile: (value: unknown, context: KeywordContext) => Dependents | undefined,
): KeywordDefinition<Dependents> {
  return {
    name,
    annotatesInPlace: true,
    speculative: () => true,
    subschemas,
    compile,
    outline(keyword, outline) {
      const {requirements, schemas} = keyword.value;
      if (requirements !== undefined) outlineRequirements(requirements, outline);
      if (schemas !== undefined) schemas.nodes.forEach((node, index) => outline.when(schemas.triggers.names[index]!, node));
    },
    begin(run, keyword) {
      const {schemas} = keyword.value;
      if (run.kind !== OBJECT || schemas === undefined) return;
      const state = run.state(keyword, newDependentsState);
      for (let i = 0; i < schemas.nodes.length; i++) {
        state.runs[i] = run.applyInPlace(schemas.nodes[i]!, keyword, i, schemas.paths[i]!);
        if (run.settled) return;
      }
    },
    key(run, keyword, property) {
      const {requirements, schemas} = keyword.value;
      const state = run.state(keyword, newDependentsState);
      if (requirements !== undefined) requirements.presence.see(state.required, property);
      if (schemas === undefined || !schemas.triggers.includes(property)) return;
      schemas.triggers.see(state.triggers, property);
      const sub = state.runs[schemas.triggers.bitOf(property)!];
      if (sub !== undefined && sub.settled && sub.failed) run.failWith(sub);
    },
    result(run, keyword, child) {
      const triggers = keyword.value.schemas!.triggers;
      if (child.failed && triggers.has(run.state(keyword, newDependentsState).triggers, triggers.names[child.slot]!)) run.failWith(child);
    },
    end(run, keyword) {
      if (run.kind !== OBJECT) return;
      const {requirements, schemas} = keyword.value;
      const state = run.state(keyword, newDependentsState);
      if (requirements !== undefined) checkRequirements(run, keyword, requirements, state.required);
      if (run.settled || schemas === undefined) return;
      for (let i = 0; i < schemas.nodes.length; i++) {
        if (schemas.triggers.has(state.triggers, schemas.triggers.names[i]!)) run.mergeAnnotations(state.runs[i]!);
      }
    },
  };
}
