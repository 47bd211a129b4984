// Property names that outlive the document that sent them: the caches that make a repeated name
// cheap (key plans, src/engine/keyPlan.ts; the checker's members, src/engine/shape.ts) keep
// them for the life of the validator, each location in a NameTable. Two rules keep what clients
// send from piling up there:
//
// - A kept name is a copy. The tokenizer's keys are slices of the text they came in, and V8 keeps
//   a slice's whole parent alive: one kept 13-character name pinned its chunk of up to 64 KiB.
// - A validator's names cost at most NAME_CACHE_BYTES per cache, counted in bytes (see
//   NameBudget), not only in entries: 1,024 names of 64 Ki units are 128 MiB.

/** What a cache of one validator may keep, in bytes (see NameBudget). */
export const NAME_CACHE_BYTES = 2 * 1024 * 1024;

/**
 * Longer names are never kept: they are rare in documents a schema describes, each would take a
 * large share of the budget, and working out what such a name selects costs time in proportion
 * to its length anyway.
 */
const MAX_KEPT_NAME_LENGTH = 256;

/** `name` is short enough to keep (see MAX_KEPT_NAME_LENGTH). */
export const isKeepable = (name: string): boolean => name.length <= MAX_KEPT_NAME_LENGTH;

/**
 * A copy of `name` that shares no memory with the text it was read from. V8 copies substrings of
 * fewer than 13 units (SlicedString::kMinLength) already. JSON.stringify writes a fresh string and
 * JSON.parse reads a fresh one out of it, code unit for code unit (lone surrogates are escaped and
 * come back); test/name-cache.test.ts checks with a heap measurement that the text is released.
 */
export function copyName(name: string): string {
  return name.length < 13 ? name : (JSON.parse(JSON.stringify(name)) as string);
}

/** A part of a cache that keeps names: a node's key plans, a checker shape's members. */
export interface NameKeeper {
  /** How many names it keeps. */
  readonly keptNames: number;
  /** Forget every name kept, for good: each goes back through `give`. */
  forgetNames(give: (name: string) => void): void;
}

/**
 * The bytes a validator's cache of names may still take. Each name costs two bytes per code unit
 * and `entryBytes` for what the cache keeps beside it: the map entry, the string's header and the
 * cache's own record of the name (benchmarks/name-cache-memory.ts measures them), so that the
 * budget is a bound on the heap the cache holds, not only on its characters.
 *
 * Once the budget is spent, the keeper with the most names forgets them all and keeps no more:
 * names that do not repeat (a map keyed by ids, or a client sending new keys each time) pile up
 * in one place, and the budget goes back to the places whose names do repeat. Each keeper is
 * retired once at most, so this happens at most once per schema location.
 */
export class NameBudget {
  private left = NAME_CACHE_BYTES;
  /** Every keeper that keeps a name. */
  private readonly keepers: NameKeeper[] = [];

  constructor(private readonly entryBytes: number) {}

  /**
   * Room for `name` (a keepable one) in `keeper`: its cost is taken. False when there is none even
   * after the largest keeper is retired, or when `keeper` is the one retired.
   */
  take(keeper: NameKeeper, name: string): boolean {
    const cost = this.costOf(name);
    while (cost > this.left) {
      const largest = this.largestKeeper();
      if (largest === undefined) return false;
      this.retire(largest);
      if (largest === keeper) return false;
    }
    if (keeper.keptNames === 0) this.keepers.push(keeper);
    this.left -= cost;
    return true;
  }

  /** `keeper` forgets its names and keeps no more; their bytes come back. */
  retire(keeper: NameKeeper): void {
    const at = this.keepers.indexOf(keeper);
    if (at >= 0) this.keepers.splice(at, 1);
    keeper.forgetNames((name) => (this.left += this.costOf(name)));
  }

  /** What is left, in bytes. */
  get bytesLeft(): number {
    return this.left;
  }

  private largestKeeper(): NameKeeper | undefined {
    let largest: NameKeeper | undefined;
    for (const keeper of this.keepers) if (largest === undefined || keeper.keptNames > largest.keptNames) largest = keeper;
    return largest;
  }

  private costOf(name: string): number {
    return this.entryBytes + 2 * name.length;
  }
}

/** Key positions a table remembers (see NameTable.place): wider objects look the rest up by name. */
const MAX_POSITIONS = 64;

/**
 * What one schema location keeps per property name (a key plan, a checker member), and the name
 * met last at each key position with its value: objects of one schema tend to list their keys in
 * one order, so the same name there again costs a string comparison instead of hashing a fresh key
 * for the map (on the engine benchmark's records, 35 lookups per record in value mode).
 */
export class NameTable<T> implements NameKeeper {
  /** Values by name; the names are copies. */
  readonly byName = new Map<string, T>();
  /** The name kept last at each key position (as in byName), null at a position none was; no name equals null. */
  readonly names: (string | null)[] = [];
  readonly values: T[] = [];
  /** False once retired: nothing more is kept. */
  keeps = true;

  constructor(private readonly budget: NameBudget) {}

  /** Room to keep `name`: its cost is taken from the budget, and `set` must follow. */
  admits(name: string): boolean {
    return this.keeps && isKeepable(name) && this.budget.take(this, name);
  }

  /** Keep `value` for `name`, admitted: the copy of the name kept. */
  set(name: string, value: T): string {
    const copy = copyName(name);
    this.byName.set(copy, value);
    return copy;
  }

  /** The kept name `name` (as `set` gave it) was met at key `position`, with `value`. */
  place(position: number, name: string, value: T): void {
    if (position >= MAX_POSITIONS) return;
    const {names, values} = this;
    while (names.length < position) (names.push(null), values.push(value));
    names[position] = name;
    values[position] = value;
  }

  /** This table keeps no more: its names go back to the budget. */
  retire(): void {
    this.budget.retire(this);
  }

  get keptNames(): number {
    return this.byName.size;
  }

  forgetNames(give: (name: string) => void): void {
    this.keeps = false;
    for (const name of this.byName.keys()) give(name);
    this.byName.clear();
    this.names.length = 0;
    this.values.length = 0;
  }
}
