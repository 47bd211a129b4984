// Repeated keys in a large object (RFC 7493 §2.3), remembered as 64-bit fingerprints instead of the
// key strings. A Set of the strings kept every key of a 200,000-key object alive: the GC copied them
// while they survived, and the object took 100-250 ms longer to check than with no repeated-key
// check at all (docs/decisions.md, "Repeated keys in large objects"). Equal keys always get equal
// fingerprints, so a repeated key is never missed; two different keys share one with probability
// about n²/2^65 for n keys (3 × 10⁻⁸ for 1,000,000), and then the document is reported as repeating
// a key it does not repeat. The hashes are seeded per process, so nobody can choose keys that pile
// up in one part of the table (hash flooding) without knowing the seeds.

import {mixString} from './fingerprint.js';

const [SEED_A, SEED_B] = crypto.getRandomValues(new Int32Array(2));

/**
 * Slots probed in a row before the table grows early (clusters that long mean bad luck or keys
 * chosen to collide), as long as it stays within MAX_SPREAD slots per key: memory stays bounded,
 * and keys that collide in every bit only cost probing time.
 */
const MAX_PROBES = 64;
const MAX_SPREAD = 16;

export class KeyFingerprints {
  // Open addressing with linear probing, at most half full; lane A is never 0 in a used slot.
  private lanesA = new Int32Array(64);
  private lanesB = new Int32Array(64);
  private size = 0;

  /** Remember `key`; false when a key with its fingerprint is already there. */
  add(key: string): boolean {
    const a = mixString(SEED_A, 0x01000193, key) | 1;
    const b = mixString(SEED_B, 0x5bd1e995, key) | 0;
    return this.insert(a, b);
  }

  private insert(a: number, b: number): boolean {
    const mask = this.lanesA.length - 1;
    for (let slot = a & mask, probes = 0; ; slot = (slot + 1) & mask, probes++) {
      const there = this.lanesA[slot];
      if (there === 0) {
        const crowded = probes > MAX_PROBES && this.lanesA.length < MAX_SPREAD * (this.size + 1);
        if (crowded || (this.size + 1) * 2 > this.lanesA.length) {
          this.grow();
          return this.insert(a, b);
        }
        this.lanesA[slot] = a;
        this.lanesB[slot] = b;
        this.size++;
        return true;
      }
      if (there === a && this.lanesB[slot] === b) return false;
    }
  }

  private grow(): void {
    const {lanesA, lanesB} = this;
    this.lanesA = new Int32Array(lanesA.length * 2);
    this.lanesB = new Int32Array(lanesA.length * 2);
    this.size = 0;
    for (let i = 0; i < lanesA.length; i++) if (lanesA[i] !== 0) this.insert(lanesA[i], lanesB[i]);
  }
}
