// The fingerprints of the items of one array under `uniqueItems` (src/engine/fingerprint.ts), for
// both engines (the keyword's evaluator hook, the checker's distinctItems): which earlier item, if
// any, an item repeats. This is the one keyword state that
// grows with the input, so it is packed: the fingerprints in arrival order, in Float64Array chunks
// (8 bytes an item; an item's position is its index), and an open-addressing table of positions
// (4 bytes a slot, kept 53-80% full by growing it by half), 13-16 bytes an item in all. A Map of
// the fingerprints took ~46 bytes an item, and a Set ~37 (benchmarks/unique-items-memory.ts).
// Slots are found by a hash of the fingerprint seeded per process, so nobody can choose items
// that pile up in one run of slots (hash flooding) without knowing the seeds.

const [SEED_LOW, SEED_HIGH] = crypto.getRandomValues(new Int32Array(2));

/** Items per chunk of fingerprints: past the first chunk, fewer than this many lie unused. */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;
/** Items found by a scan of the fingerprints, before there is a table. */
const SCAN = 8;
/** The table grows by half before it would be fuller than this. */
const MAX_LOAD = 0.8;

/** Murmur3's finalizer: every bit of `h` reaches every bit of the result. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Which slot of `capacity` a fingerprint's probe starts at: a seeded hash of its 53 bits, scaled. */
function homeSlot(fingerprint: number, capacity: number): number {
  const low = fingerprint >>> 0;
  const high = (fingerprint - low) / 0x100000000;
  const hash = mix(Math.imul(low ^ SEED_LOW, 0x9e3779b1) + mix(high ^ SEED_HIGH));
  // hash × capacity / 2^32, the one rounding of the product staying below capacity.
  return Math.floor(hash * capacity * 2.3283064365386963e-10);
}

export class ItemFingerprints {
  /** Items added: the position of the next one. */
  size = 0;
  /** Item 0's fingerprint, while it is the only one (an array of one item makes no chunk). */
  private first = 0;
  private readonly chunks: Float64Array[] = [];
  /** Position + 1 of an item per slot, 0 in a free slot; null while a scan is cheaper. */
  private slots: Int32Array | null = null;
  /** Items in the table: not those that repeat an earlier one. */
  private entries = 0;

  /** Add the next item's fingerprint: the position of an earlier item with the same one, or -1. */
  add(fingerprint: number): number {
    const position = this.size;
    const earlier = this.slots !== null ? this.place(position, fingerprint) : this.scan(fingerprint);
    this.append(fingerprint);
    if (this.slots === null && this.size === SCAN) this.rebuild(Math.ceil(SCAN / MAX_LOAD) * 2);
    return earlier;
  }

  /** Forget every item, for the next array (the checker reuses one per depth); big buffers go. */
  clear(): void {
    this.size = 0;
    this.entries = 0;
    this.slots = null;
    while (this.chunks.length > 1) this.chunks.pop();
    if (this.chunks.length === 1 && this.chunks[0]!.length > SCAN) this.chunks.pop();
  }

  private fingerprintAt(position: number): number {
    return this.size === 1 ? this.first : this.chunks[position >>> CHUNK_BITS]![position & IN_CHUNK]!;
  }

  private scan(fingerprint: number): number {
    if (this.size === 1) return this.first === fingerprint ? 0 : -1;
    const chunk = this.chunks[0];
    for (let position = 0; position < this.size; position++) if (chunk![position] === fingerprint) return position;
    return -1;
  }

  private append(fingerprint: number): void {
    const position = this.size++;
    if (position === 0) {
      this.first = fingerprint;
      return;
    }
    const {chunks} = this;
    if (position === 1) {
      if (chunks.length === 0) chunks.push(new Float64Array(SCAN));
      chunks[0]![0] = this.first;
    }
    const index = position >>> CHUNK_BITS;
    let chunk = chunks[index];
    if (chunk === undefined) chunks.push((chunk = new Float64Array(CHUNK)));
    else if ((position & IN_CHUNK) === chunk.length) {
      // The first chunk starts small and doubles up to CHUNK: short arrays stay small.
      const grown = new Float64Array(chunk.length * 2);
      grown.set(chunk);
      chunks[index] = chunk = grown;
    }
    chunk[position & IN_CHUNK] = fingerprint;
  }

  /**
   * Put `position` in the table unless an earlier item has its fingerprint: that item's position,
   * or -1. Linear probing from the fingerprint's home slot.
   */
  private place(position: number, fingerprint: number): number {
    if (this.entries + 1 > this.slots!.length * MAX_LOAD) this.rebuild(Math.ceil(this.slots!.length * 1.5));
    const slots = this.slots!;
    const capacity = slots.length;
    for (let slot = homeSlot(fingerprint, capacity); ; slot = slot + 1 === capacity ? 0 : slot + 1) {
      const there = slots[slot]!;
      if (there === 0) {
        slots[slot] = position + 1;
        this.entries++;
        return -1;
      }
      if (this.fingerprintAt(there - 1) === fingerprint) return there - 1;
    }
  }

  /** A table of `capacity` slots with every item that repeats none before it. */
  private rebuild(capacity: number): void {
    this.slots = new Int32Array(capacity);
    this.entries = 0;
    for (let position = 0; position < this.size; position++) this.place(position, this.fingerprintAt(position));
  }
}
