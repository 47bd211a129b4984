// Which of a fixed list of property names an object has: bits in one number (a Set past 31 names),
// so `required`, `dependentRequired` and `dependentSchemas` do no string work per key beyond one lookup.

export class Seen {
  bits = 0;
  more: Set<number> | null = null;
}

export const newSeen = (): Seen => new Seen();

export function seeBit(seen: Seen, bit: number): void {
  if (bit < 31) seen.bits |= 1 << bit;
  else (seen.more ??= new Set()).add(bit);
}

export class PresenceSet {
  readonly names: readonly string[];
  private readonly bits = new Map<string, number>();

  constructor(names: Iterable<string>) {
    this.names = [...new Set(names)];
    this.names.forEach((name, index) => this.bits.set(name, index));
  }

  includes(name: string): boolean {
    return this.bits.has(name);
  }

  /** The bit of a listed name (undefined for others): what `classify` hands to `key`. */
  bitOf(name: string): number | undefined {
    return this.bits.get(name);
  }

  see(seen: Seen, name: string): void {
    const bit = this.bits.get(name);
    if (bit !== undefined) seeBit(seen, bit);
  }

  has(seen: Seen | undefined, name: string): boolean {
    const bit = this.bits.get(name);
    if (bit === undefined || seen === undefined) return false;
    return bit < 31 ? (seen.bits & (1 << bit)) !== 0 : seen.more !== null && seen.more.has(bit);
  }
}
