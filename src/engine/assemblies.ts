// The values assembled for keywords that judge an object or array whole (custom keywords,
// Instance.assemble), built from the tokens that pass and bounded by limits.maxAssembledValues.
// Apart from the evaluator: the one memory here that grows with the document, and its bound.

import {Assembler} from '../json/assembler.js';
import {truncate} from './arrays.js';
import type {Run} from './run.js';
import {NOT_ASSEMBLED, OBJECT, type CompiledKeyword, type Instance, type Kind} from '../schema/node.js';

/** One value being assembled for a keyword that judges it whole (Instance.assemble). */
interface Assembly {
  readonly run: Run;
  readonly keyword: CompiledKeyword;
  readonly assembler: Assembler;
  /** Values in it so far, against `maxValues` (limits.maxAssembledValues). */
  count: number;
  readonly maxValues: number;
}

/**
 * The values being assembled: one per open container under a keyword that judges it whole, fed
 * the tokens within it, dropped once its keyword took the value or its run settled without it.
 * Each is counted against its bound, the one memory here that grows with the document.
 */
export class Assemblies {
  private readonly assemblies: Assembly[] = [];

  constructor(private readonly evaluator: Pick<Instance, 'limitError'>) {}

  get length(): number {
    return this.assemblies.length;
  }

  add(run: Run, keyword: CompiledKeyword, maxValues: number): void {
    const assembler = new Assembler();
    if (run.kind === OBJECT) assembler.startObject();
    else assembler.startArray();
    this.assemblies.push({run, keyword, assembler, count: 1, maxValues});
  }

  /** The value assembled for `run` and `keyword`, taken out; NOT_ASSEMBLED if there is none. */
  take(run: Run, keyword: CompiledKeyword): unknown {
    const index = this.assemblies.findIndex((assembly) => assembly.run === run && assembly.keyword === keyword);
    if (index === -1) return NOT_ASSEMBLED;
    const [assembly] = this.assemblies.splice(index, 1);
    return assembly.assembler.value;
  }

  /** The assemblies still wanted, those of settled runs dropped: a value nobody will judge is not built. */
  private live(): Assembly[] {
    for (let i = this.assemblies.length - 1; i >= 0; i--) if (this.assemblies[i].run.settled) this.assemblies.splice(i, 1);
    return this.assemblies;
  }

  /** The assemblies still wanted, each counting one more value. */
  private withValue(): Assembly[] {
    const assemblies = this.live();
    for (const assembly of assemblies) {
      if (++assembly.count <= assembly.maxValues) continue;
      const message = `More than maxAssembledValues (${assembly.maxValues}) values in one value that "${assembly.keyword.name}" judges whole`;
      throw this.evaluator.limitError('limit.assembled', message, assembly.run.depth);
    }
    return assemblies;
  }

  /** An object or array starts within the values being assembled. */
  start(kind: Kind): void {
    for (const {assembler} of this.withValue()) {
      if (kind === OBJECT) assembler.startObject();
      else assembler.startArray();
    }
  }

  /** The innermost open object or array ends. */
  close(): void {
    for (const {assembler} of this.live()) assembler.endObject();
  }

  key(name: string): void {
    for (const {assembler} of this.live()) assembler.keyValue(name);
  }

  scalar(value: string | number | boolean | null): void {
    for (const {assembler} of this.withValue()) assembler.scalarValue(value);
  }

  clear(): void {
    truncate(this.assemblies, 0);
  }
}
