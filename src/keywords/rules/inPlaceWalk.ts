// The subschemas a schema applies at its own location, as the keywords' outlines name them (`all`,
// `some`, `conditional`, `when`, and `none` for whoever asks through `not`): each is read once, a
// `$ref` cycle included, and at most MAX_NODES of them. What reads outlines for one purpose extends
// it: what in-place subschemas could evaluate (rules/inPlaceReach.ts), whether they judge strings
// by kind alone (src/engine/judgedByKind.ts).

import {OutlineReader, type SchemaNode} from '../../schema/node.js';

/** Subschemas read per walk, at most: past this, the walk says it overflowed. */
const MAX_NODES = 256;

export abstract class InPlaceWalk extends OutlineReader {
  private readonly pending: SchemaNode[] = [];
  private readonly seen = new Set<SchemaNode>();

  /** `throughNot`: a `not`'s subschema is walked too. */
  constructor(private readonly throughNot: boolean) {
    super();
  }

  /** More than MAX_NODES subschemas were met: some are left unread. */
  protected abstract overflow(): void;

  /** Read `node` later (once), as a subschema applied in place. */
  protected visit(node: SchemaNode | undefined): void {
    if (node === undefined || this.seen.has(node)) return;
    if (this.seen.size >= MAX_NODES) {
      this.overflow();
      return;
    }
    this.seen.add(node);
    this.pending.push(node);
  }

  /** `read` each subschema visited, and those their outlines name, until it says stop (false). */
  protected walk(read: (node: SchemaNode) => boolean): boolean {
    for (let node = this.pending.pop(); node !== undefined; node = this.pending.pop()) if (!read(node)) return false;
    return true;
  }

  override all(node: SchemaNode): void {
    this.visit(node);
  }

  override some(nodes: readonly SchemaNode[]): void {
    for (const node of nodes) this.visit(node);
  }

  override conditional(condition: SchemaNode, then: SchemaNode | undefined, otherwise: SchemaNode | undefined): void {
    this.visit(condition);
    this.visit(then);
    this.visit(otherwise);
  }

  override when(_trigger: string, node: SchemaNode): void {
    this.visit(node);
  }

  override none(node: SchemaNode): void {
    if (this.throughNot) this.visit(node);
  }
}
