// Emptying and cutting back the evaluator's short stacks (runs, reports, requests) without the
// runtime call `length = …` makes: shared by the evaluator, its frames and its assemblies.

/** Empty a short array. Popping is inlined by V8; `length = 0` is a runtime call (6% of a profile). */
export function clear<T>(items: T[]): void {
  while (items.length > 0) items.pop();
}

/** Cut `items` back to its first `length` entries (popping, as `clear`). */
export function truncate<T>(items: T[], length: number): void {
  while (items.length > length) items.pop();
}
