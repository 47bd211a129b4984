// Per open object or array: its frame (where its runs lie on the stack, its key or index, the
// leaf checks waiting for its member value, its fingerprint), and the fingerprint requests of the
// open containers. Apart from the evaluator, which routes events through these: what one
// container holds, pooled per depth, and how a document's end clears it.

import {type Hash} from './fingerprint.js';
import {KeySet} from './keySet.js';
import {truncate} from './arrays.js';
import type {Run} from './run.js';
import {OBJECT, type CompiledKeyword, type FingerprintListener, type Kind, type SchemaNode} from '../schema/node.js';

/**
 * The keywords that asked for the fingerprints of the open containers' current items, as
 * parallel stacks: a frame's are those from its `requestsFrom` up to the next frame's.
 */
export class FingerprintRequests {
  readonly runs: Run[] = [];
  readonly keywords: CompiledKeyword[] = [];
  readonly listeners: FingerprintListener[] = [];

  truncate(length: number): void {
    truncate(this.runs, length);
    truncate(this.keywords, length);
    truncate(this.listeners, length);
  }
}


/**
 * Member applications of leaf schemas (SchemaNode.scalarLeaf) waiting for the member value, as
 * parallel arrays: a scalar value is checked without allocating a run for it.
 */
export class DeferredLeaves {
  readonly nodes: SchemaNode[] = [];
  readonly parents: Run[] = [];
  readonly vias: CompiledKeyword[] = [];
  readonly slots: number[] = [];
  readonly paths: string[] = [];
}

/**
 * One open object or array. Frames are pooled per depth; what only some containers need is made
 * on first use, since the frames of each `session()` are new and a deep document makes one per level.
 */
export class Frame {
  kind: Kind = OBJECT;
  /**
   * The container's runs are Evaluator.stack[start, end); the runs for the member value about to
   * start are gathered above them (the next frame's own runs, if it is a container).
   */
  start = 0;
  end = 0;
  key = '';
  index = -1;
  /** The JSON pointer of the current member (`key` or `index`), once asked (Evaluator.pointer); null when it changes. */
  path: string | null = null;
  count = 0;
  /** The item that starts next was announced already (Evaluator.announceItem). */
  announced = false;
  /** Keys seen so far, to reject a repeated key (src/engine/keySet.ts): objects from text only. */
  keys: KeySet | null = null;
  /** How many of `leaves` wait for the member value; entries past it are stale. */
  leafCount = 0;
  leaves: DeferredLeaves | null = null;
  /**
   * This container's fingerprint is wanted: it is an item whose fingerprint was asked for, or lies
   * within one. Its hash so far (src/engine/fingerprint.ts), pooled like the frame.
   */
  hashed = false;
  hash: Hash | null = null;
  /** Where the requests for the fingerprint of the current item begin (Evaluator.fingerprintItem). */
  requestsFrom = 0;

  /**
   * Forget everything of the document that used this frame. A document can end anywhere — a
   * syntax error, a limit, an early stop, an exception — and leave runs gathered for a member
   * that never came: the next document must not meet them (they once made it pass).
   */
  clear(): void {
    this.start = 0;
    this.end = 0;
    this.key = '';
    this.index = -1;
    this.path = null;
    this.count = 0;
    this.announced = false;
    this.keys?.clear();
    // Entries past leafCount are never read, and are overwritten before they are.
    this.leafCount = 0;
    this.hashed = false;
    this.requestsFrom = 0;
  }
}
