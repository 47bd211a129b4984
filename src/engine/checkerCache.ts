// What the text checkers of one schema share (src/engine/checker.ts): the shapes built from its
// keywords' outlines so far, the members a value judged apart selects, the scopes everything starts
// from, and the programs written from the shapes (src/engine/programs.ts). One per compiled
// validator: nothing module-level holds a schema's (docs/decisions.md, "Nothing module-level holds
// a compiled schema").

import {NameBudget} from './nameCache.js';
import type {SchemaNode} from '../schema/node.js';
import type {Limits} from '../types.js';
import {Scope} from './dynamicScope.js';
import {ScalarPlans} from './scalarPlan.js';
import {Shape, signatureOf, wordsFor, type Member} from './shape.js';
import {ShapeBuilder} from './shapeBuilder.js';
import {Programs, generatesCode, type Mode, type TextProgram, type ValueProgram} from './programs.js';

/** What a kept member costs beside its name's characters (~1,400-1,700 bytes: benchmarks/name-cache-memory.ts). */
const MEMBER_BYTES = 2048;
/** Shapes kept per schema; past this, shapes are built afresh for each container. */
const MAX_SHAPES = 4096;
/**
 * checkValue and the programs recurse on the JavaScript stack: a value nested deeper than this is
 * left to the evaluator's walk (or the scanner), which keeps a stack of its own (and enforces
 * limits.maxDepth).
 */
export const MAX_VALUE_DEPTH = 400;
/** Documents read twice (see CheckerCache.programMisses) before the programs may be given up. */
const MAX_MISSES = 64;

/** What checkers of one schema share: the shapes and members built so far (see TextChecker). */
export class CheckerCache {
  /** False once the schema turned out to have a keyword the checker cannot ask: stop trying. */
  usable = true;
  readonly shapes = new Map<string, Shape>();
  /** What the property names kept by the shapes' members may still take. */
  readonly budget = new NameBudget(MEMBER_BYTES);
  readonly scalarPlans = new ScalarPlans();
  /** Members for values judged apart (beginValue): by their one node, or by their nodes' ids. */
  readonly valuesOfNode = new Map<SchemaNode, Member>();
  readonly values = new Map<string, Member>();
  /**
   * The scopes everything starts from: a document's, and a member value's judged apart (what lies
   * outside it is not known). They intern the scopes entered from them by resource, so they belong
   * to one schema: module-level ones kept every schema that ever checked a container alive.
   */
  readonly documentScope = new Scope(null, null);
  readonly partialScope = new Scope(null, null, true);
  /** The generated code of value mode and of whole texts (src/engine/programs.ts): made on first need, null where none may be. */
  private readonly programs: Record<Mode, Programs | null | undefined> = {value: undefined, text: undefined};

  /**
   * Documents the programs passed, and those they did not pass that the checker then passed, per
   * mode: where the code covers too little of a schema (its shapes have `unevaluated*` deep in
   * them, say), each such document was read twice. Past MAX_MISSES of them, and more than one in
   * five of those passed, the programs are no longer asked.
   */
  readonly programPasses = {value: 0, text: 0};
  readonly programMisses = {value: 0, text: 0};

  /** Whether the programs of `mode` are still worth asking (see programMisses). */
  asksPrograms(mode: Mode): boolean {
    const misses = this.programMisses[mode];
    return misses < MAX_MISSES || misses * 4 < this.programPasses[mode];
  }

  /** The shape of the containers `member` applies to, built once per distinct set of applications. */
  shapeOf(member: Member): Shape {
    const {nodes, targets, scopes} = member;
    const signature = signatureOf(member);
    const {shapes} = this;
    let shape = shapes.get(signature);
    if (shape === undefined) {
      shape = new Shape(this.budget);
      const builder = new ShapeBuilder(shape, () => (this.usable = false));
      for (let i = 0; i < nodes.length; i++) builder.apply(nodes[i]!, targets[i]!, scopes[i]!);
      shape.flagWords = wordsFor(shape.flags);
      shape.extras = shape.distinctTargets.length > 0 || shape.tallyBits.length > 0 || shape.memberSources.rules.length > 0 || shape.itemSources.rules.length > 0;
      shape.presenceWords = wordsFor(shape.presenceBits.size);
      if (shapes.size < MAX_SHAPES) shapes.set(signature, shape);
    }
    return (member.shape = shape);
  }

  /** The program that judges parsed values `member` applies to, or null where code may not be generated. */
  valueProgramOf(member: Member, limits: Required<Limits>): ValueProgram | null {
    return this.programOf('value', member, limits) as ValueProgram | null;
  }

  /** The program that reads texts of the values `member` applies to, or null where code may not be generated. */
  textProgramOf(member: Member, limits: Required<Limits>): TextProgram | null {
    return this.programOf('text', member, limits) as TextProgram | null;
  }

  private programOf(mode: Mode, member: Member, limits: Required<Limits>): ValueProgram | TextProgram | null {
    let programs = this.programs[mode];
    // The code recurses, where the checker keeps a stack of its own: deeper, the checker decides.
    if (programs === undefined) programs = this.programs[mode] = generatesCode ? new Programs(mode, (of) => of.shape ?? this.shapeOf(of), this.scalarPlans, this.budget, limits, MAX_VALUE_DEPTH) : null;
    return programs === null ? null : programs.of(member);
  }
}
