// The dynamic scope the text checker applies each subschema in (src/engine/checker.ts), for
// `$dynamicRef` and `$recursiveRef`. Apart because shapes, members and the ShapeBuilder all key on
// it, and what it keeps (one interned object per distinct scope, per schema) is a question of its
// own: the roots live in CheckerCache so that no schema outlives its validator.

import type {Resource} from '../schema/node.js';

/**
 * The dynamic scope of an application, for `$dynamicRef` and `$recursiveRef`: the schema resources
 * entered on the way to it, each kept once at its outermost entry, which is all those keywords
 * read (the outermost resource with a matching anchor wins). Interned: equal scopes are one
 * object, and its id goes into shape signatures.
 */
export class Scope {
  private static count = 0;
  readonly id = Scope.count++;
  private readonly entered = new Map<Resource, Scope>();
  /** The scope begins somewhere not known here (a member value judged apart: see TextChecker.beginValue). */
  readonly partial: boolean;

  constructor(
    readonly resource: Resource | null,
    readonly parent: Scope | null,
    partial = false,
  ) {
    this.partial = partial || (parent !== null && parent.partial);
  }

  /** This scope after applying a node of `resource`. */
  enter(resource: Resource): Scope {
    if (this.resource === resource) return this;
    let child = this.entered.get(resource);
    if (child === undefined) {
      child = this.includes(resource) ? this : new Scope(resource, this);
      this.entered.set(resource, child);
    }
    return child;
  }

  private includes(resource: Resource): boolean {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent) if (scope.resource === resource) return true;
    return false;
  }

  /** The resources, innermost first. */
  *resources(): Generator<Resource> {
    for (let scope: Scope | null = this; scope !== null && scope.resource !== null; scope = scope.parent) yield scope.resource;
  }
}
