// How much a built-in method was asked to do while some work ran: each call of `owner[name]`
// weighed by what it did (1 by default), the same on every machine, so that a test can assert
// that work grows linearly where it would otherwise have had to time it (see also scanWork.ts).

/** Run `work` with `owner[name]` counted, and give the count; the method is restored however `work` ends. */
export function countCalls<Owner extends object>(owner: Owner, name: keyof Owner & string, work: () => void, weigh: (result: unknown, args: unknown[]) => number = () => 1): number {
  const methods = owner as Record<string, unknown>;
  const original = methods[name] as (...args: unknown[]) => unknown;
  let count = 0;
  methods[name] = function (this: unknown, ...args: unknown[]): unknown {
    const result = original.apply(this, args);
    count += weigh(result, args);
    return result;
  };
  try {
    work();
  } finally {
    methods[name] = original;
  }
  return count;
}
