// The isolation oracle: one validator shared by a sequence of documents (some of them hostile,
// some written alternately) must give each document what a validator compiled for it alone gives.
// A task is one document through one entry point; its outcome is everything the caller sees.

import assert from 'node:assert/strict';
import fc from 'fast-check';
import {compile} from '../../src/index.js';
import {property} from './property.js';
import type {Result, Session, Validator} from '../../src/types.js';
import {chunk, familyCases, chunkingArbitrary, Document, documentArbitrary, HostileValue, valueArbitrary, type Chunking, type JsonTree, type SchemaCase} from './arbitraries.js';

export type Task =
  | {entry: 'validate'; value: HostileValue}
  | {entry: 'validateText' | 'parseText'; document: Document; asString: boolean}
  /** `abandonAfter`: chunks written before the caller walks away without end(); undefined: all, then end(). */
  | {entry: 'session'; document: Document; chunking: Chunking; parse: boolean; abandonAfter: number | undefined};

export type Entry = Task['entry'];

/** What the caller sees: a result, an exception, or a session's answers to each write and its end. */
export type Outcome =
  | {result: Result}
  | {threw: string}
  | {writes: {accepted: boolean; failed: boolean}[]; bytesRead: number; result?: Result; threw?: string};

export function taskArbitrary(schemaCase: SchemaCase, entries: readonly Entry[], family: readonly JsonTree[] = []): fc.Arbitrary<Task> {
  const document = documentArbitrary(schemaCase, family);
  const byEntry: Record<Entry, fc.Arbitrary<Task>> = {
    validate: valueArbitrary(schemaCase, family).map((value): Task => ({entry: 'validate', value})),
    validateText: fc.record({document, asString: fc.boolean()}).map((task): Task => ({entry: 'validateText', ...task})),
    parseText: fc.record({document, asString: fc.boolean()}).map((task): Task => ({entry: 'parseText', ...task})),
    session: fc
      .record({document, chunking: chunkingArbitrary, parse: fc.boolean(), abandonAfter: fc.option(fc.integer({min: 1, max: 4}), {nil: undefined, freq: 4})})
      .map((task): Task => ({entry: 'session', ...task})),
  };
  return fc.oneof(...entries.map((entry) => byEntry[entry]));
}

/** A schema, the documents given to one validator, and how their steps interleave (empty: one after another). */
export interface Scenario {
  schemaCase: SchemaCase;
  tasks: Task[];
  interleaving: number[];
}

export function scenarioArbitrary(
  schemaCaseArbitrary: fc.Arbitrary<SchemaCase>,
  entries: readonly Entry[],
  options: {minTasks?: number; maxTasks?: number; interleave: boolean},
): fc.Arbitrary<Scenario> {
  return familyCases(schemaCaseArbitrary).chain(({schemaCase, family}) =>
    fc.record({
      schemaCase: fc.constant(schemaCase),
      tasks: fc.array(taskArbitrary(schemaCase, entries, family), {minLength: options.minTasks ?? 2, maxLength: options.maxTasks ?? 8}),
      interleaving: options.interleave ? fc.array(fc.nat(), {minLength: 1, maxLength: 40}) : fc.constant([]),
    }),
  );
}

/** One task in progress: its remaining steps, and the session it writes to. */
interface Running {
  task: Task;
  chunks: (Uint8Array | string)[];
  step: number;
  steps: number;
  session?: Session;
  outcome?: Outcome;
}

function stepsOf(task: Task, chunks: (Uint8Array | string)[]): number {
  if (task.entry !== 'session') return 1;
  if (task.abandonAfter !== undefined) return Math.min(task.abandonAfter, chunks.length);
  return chunks.length + 1;
}

/**
 * Runs the tasks on `validator`. Without interleaving each task runs to its end before the next;
 * with it, `interleaving` picks, step after step, which unfinished task goes on (a session's steps
 * are its writes and its end; the other entry points are one step).
 */
export function runTasks(validator: Validator, tasks: readonly Task[], interleaving: readonly number[], order: number[] = []): Outcome[] {
  const running: Running[] = tasks.map((task) => {
    const chunks = task.entry === 'session' ? chunk(task.document.bytes, task.chunking) : [];
    return {task, chunks, step: 0, steps: stepsOf(task, chunks)};
  });
  const unfinished = (): Running[] => running.filter((one) => one.step < one.steps || one.outcome === undefined);
  for (let turn = 0; ; turn++) {
    const left = unfinished();
    if (left.length === 0) break;
    const pick = left[interleaving.length === 0 ? 0 : interleaving[turn % interleaving.length]! % left.length]!;
    order.push(running.indexOf(pick));
    advance(validator, pick);
  }
  return running.map((one) => one.outcome!);
}

function advance(validator: Validator, running: Running): void {
  const {task} = running;
  if (task.entry !== 'session') {
    running.step++;
    running.outcome = capture(() => ({result: callEntry(validator, task)}));
    return;
  }
  const outcome = (running.outcome ??= {writes: [], bytesRead: 0}) as Extract<Outcome, {writes: unknown}>;
  if (running.step >= running.steps) return; // an abandoned session with nothing (more) to write
  try {
    const session = (running.session ??= validator.session({parse: task.parse}));
    if (running.step < running.chunks.length) {
      const accepted = session.write(running.chunks[running.step]!);
      outcome.writes.push({accepted, failed: session.failed});
    } else outcome.result = session.end();
    outcome.bytesRead = session.bytesRead;
  } catch (error) {
    outcome.threw = describeError(error);
    running.step = running.steps;
    return;
  }
  running.step++;
}

function callEntry(validator: Validator, task: Exclude<Task, {entry: 'session'}>): Result {
  if (task.entry === 'validate') return validator.validate(task.value.make());
  const input = task.asString ? task.document.text : task.document.bytes;
  return task.entry === 'validateText' ? validator.validateText(input) : validator.parseText(input);
}

function capture(work: () => Outcome): Outcome {
  try {
    return work();
  } catch (error) {
    return {threw: describeError(error)};
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** What each task gets from a validator compiled for it alone. */
export function freshOutcomes(scenario: Scenario): Outcome[] {
  return scenario.tasks.map((task) => runTasks(compile(scenario.schemaCase.schema, scenario.schemaCase.options), [task], [])[0]!);
}

/**
 * The property: every task's outcome on one shared validator equals its outcome on a fresh one,
 * and nothing threw (validate() reports a getter that throws as value.unreadable).
 */
export function assertIsolated(scenario: Scenario): void {
  const shared = compile(scenario.schemaCase.schema, scenario.schemaCase.options);
  const outcomes = runTasks(shared, scenario.tasks, scenario.interleaving);
  const expected = freshOutcomes(scenario);
  scenario.tasks.forEach((task, index) => {
    const context = `task ${index} (${describeTask(task)}) of ${scenario.tasks.length}`;
    assertNoThrow(expected[index]!, `${context}, on a fresh validator`);
    assertNoThrow(outcomes[index]!, `${context}, on the shared validator`);
    assert.deepStrictEqual(outcomes[index], expected[index], `${context}: the shared validator differs from a fresh one`);
  });
}

function assertNoThrow(outcome: Outcome, context: string): void {
  if (!('threw' in outcome) || outcome.threw === undefined) return;
  assert.fail(`${context}: threw ${outcome.threw}`);
}

export function describeTask(task: Task): string {
  if (task.entry === 'validate') return `validate ${task.value[fc.toStringMethod]()}`;
  const document = task.document[fc.toStringMethod]();
  if (task.entry !== 'session') return `${task.entry}${task.asString ? ' (string)' : ''} ${document}`;
  const ending = task.abandonAfter === undefined ? '' : `, abandoned after ${task.abandonAfter} chunks`;
  return `session${task.parse ? ' (parse)' : ''} ${document}${ending}`;
}

// ---------------------------------------------------------------------------------------------
// Minimal reproductions. fast-check cannot shrink a schema once documents were generated from it
// (they are chained), so a failure is reduced here instead: fewer tasks, a smaller schema, fewer
// options, shorter documents, plainer chunking, as long as the shared validator still differs.

/** `property(runs)` for assertIsolated, reporting a failure as a minimized scenario. */
export function isolationParameters(runs: number): fc.Parameters<[Scenario]> {
  return {...property<[Scenario]>(runs), endOnFailure: true, reporter: reportMinimized};
}

function reportMinimized(details: fc.RunDetails<[Scenario]>): void {
  if (!details.failed) return;
  const [scenario] = details.counterexample!;
  const minimal = minimizeScenario(scenario);
  throw new Error(`${fc.defaultReportMessage(details)}\n\nMinimal reproduction:\n${describeScenario(minimal)}\n${failureOf(minimal)?.message ?? ''}`);
}

export function describeScenario({schemaCase, tasks, interleaving}: Scenario): string {
  const lines = [`compile(${JSON.stringify(schemaCase.schema)}, ${JSON.stringify(schemaCase.options)})`];
  tasks.forEach((task, index) => lines.push(`  ${index}: ${describeTask(task)}${task.entry === 'session' ? ` in chunks ${JSON.stringify(chunk(task.document.bytes, task.chunking).map(describeChunk))}` : ''}`));
  if (interleaving.length > 0) {
    const order: number[] = [];
    runTasks(compile(schemaCase.schema, schemaCase.options), tasks, interleaving, order);
    lines.push(`  steps taken by task (a session's writes, then its end): ${order.join(', ')}`);
  }
  return lines.join('\n');
}

function describeChunk(piece: Uint8Array | string): string {
  return typeof piece === 'string' ? piece : Buffer.from(piece).toString('latin1');
}

/** The assertion assertIsolated fails with, if any (other exceptions: the candidate is not a reproduction). */
function failureOf(scenario: Scenario): Error | undefined {
  try {
    assertIsolated(scenario);
  } catch (error) {
    if (error instanceof assert.AssertionError) return error;
  }
  return undefined;
}

function minimizeScenario(start: Scenario): Scenario {
  let current = start;
  let budget = 5000;
  const stillFails = (candidate: Scenario): boolean => budget-- > 0 && failureOf(candidate) !== undefined;
  for (let progress = true; progress && budget > 0; ) {
    progress = false;
    for (const candidate of simpler(current)) {
      if (!stillFails(candidate)) continue;
      current = candidate;
      progress = true;
      break;
    }
  }
  return current;
}

function* simpler(scenario: Scenario): Generator<Scenario> {
  const {schemaCase, tasks, interleaving} = scenario;
  for (let index = 0; index < tasks.length; index++) yield {...scenario, tasks: tasks.filter((_, other) => other !== index)};
  if (interleaving.length > 0) yield {...scenario, interleaving: []};
  for (let index = 0; index < interleaving.length && interleaving.length > 1; index++) yield {...scenario, interleaving: interleaving.filter((_, other) => other !== index)};
  for (const option of ['allErrors', 'formats', 'limits', 'draft'] as const) {
    if (schemaCase.options[option] === undefined) continue;
    const {[option]: _dropped, ...options} = schemaCase.options;
    yield {...scenario, schemaCase: {...schemaCase, options}};
  }
  for (const schema of smallerJson(schemaCase.schema)) yield {...scenario, schemaCase: {...schemaCase, schema: schema as typeof schemaCase.schema}};
  for (let index = 0; index < tasks.length; index++) {
    for (const task of simplerTask(tasks[index]!)) yield {...scenario, tasks: tasks.map((other, at) => (at === index ? task : other))};
  }
}

function* simplerTask(task: Task): Generator<Task> {
  if (task.entry === 'validate') return;
  if (task.entry === 'session') {
    const plain: Chunking = {cuts: [], every: 0, afterHighBytes: false, singleBytes: false, strings: false};
    if (JSON.stringify(task.chunking) !== JSON.stringify(plain)) yield {...task, chunking: plain};
    if (task.parse) yield {...task, parse: false};
    if (task.abandonAfter !== undefined) yield {...task, abandonAfter: undefined};
  } else if (task.asString) yield {...task, asString: false};
  for (const bytes of shorter(task.document.bytes)) yield {...task, document: new Document('shortened', bytes)};
}

/** Halves, then (for short ones) the bytes without one of them. */
function* shorter(bytes: Uint8Array): Generator<Uint8Array> {
  if (bytes.length === 0) return;
  if (bytes.length > 8) {
    yield bytes.subarray(0, bytes.length >> 1);
    yield bytes.subarray(bytes.length >> 1);
  }
  if (bytes.length > 300) return;
  for (let index = 0; index < bytes.length; index++) yield new Uint8Array(Buffer.concat([bytes.subarray(0, index), bytes.subarray(index + 1)]));
}

/** A JSON value with a member or item dropped, an object member made `true`, or a child made smaller. */
function* smallerJson(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) yield value.filter((_, other) => other !== index);
    for (let index = 0; index < value.length; index++) for (const child of smallerJson(value[index])) yield value.map((item, at) => (at === index ? child : item));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const entries = Object.entries(value);
  for (const [key] of entries) yield Object.fromEntries(entries.filter(([other]) => other !== key));
  for (const [key, child] of entries) {
    if (typeof child === 'object' && child !== null && Object.keys(child).length > 0) yield Object.fromEntries(entries.map(([other, item]) => [other, other === key ? true : item]));
    for (const smaller of smallerJson(child)) yield Object.fromEntries(entries.map(([other, item]) => [other, other === key ? smaller : item]));
  }
}
