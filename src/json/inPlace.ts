// Value mode under the value options: ajv changes the value it is given, in place, and so do we.
// The amended value is assembled apart (src/engine/amender.ts through the assembler); this makes
// the caller's value say the same, keeping its objects and arrays where they stay objects and
// arrays, and its keys in their order (a default, as in ajv, comes after the keys that were there).

/** Make `target` equal `source` where it can, in place; the value to use (`target`, unless it changed kind). */
export function assignInPlace(target: unknown, source: unknown): unknown {
  if (isPlainObject(target) && isPlainObject(source)) {
    for (const key of Object.keys(target)) {
      // A property whose value is undefined is no JSON member: the walk skipped it, so it stays.
      if (!Object.hasOwn(source, key) && target[key] !== undefined) delete target[key];
    }
    // Only own members are read: `target.__proto__` would be Object.prototype, changed in place.
    for (const key of Object.keys(source)) setMember(target, key, assignInPlace(Object.hasOwn(target, key) ? target[key] : undefined, source[key]));
    return target;
  }
  if (Array.isArray(target) && Array.isArray(source)) {
    for (let index = 0; index < source.length; index++) {
      const item = assignInPlace(target[index], source[index]);
      if (item !== target[index]) target[index] = item;
    }
    target.length = source.length;
    return target;
  }
  return target === source ? target : source;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `object[key] = value`, as an own property even for `__proto__` (JSON.parse's way). */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (object[key] === value && Object.hasOwn(object, key)) return;
  if (key === '__proto__') Object.defineProperty(object, key, {value, writable: true, enumerable: true, configurable: true});
  else object[key] = value;
}
