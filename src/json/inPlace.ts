// Value mode under the value options: ajv changes the value it is given, in place, and so do we.
// The amended value is assembled apart (src/engine/amender.ts through the assembler); this makes
// the caller's value say the same, keeping its objects and arrays where they stay objects and
// arrays, and its keys in their order (a default, as in ajv, comes after the keys that were there).

import {escapePointerToken} from './pointer.js';

/** Make `target` equal `source` where it can, in place; the value to use (`target`, unless it changed kind). */
export function assignInPlace(target: unknown, source: unknown): unknown {
  if (isPlainObject(target) && isPlainObject(source)) {
    for (const key of Object.keys(target)) {
      if (dropsMember(target, source, key)) delete target[key];
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
    // A frozen array of the right length is left alone: setting its length throws, even to itself.
    if (target.length !== source.length) target.length = source.length;
    return target;
  }
  return target === source ? target : source;
}

/**
 * assignInPlace deletes the member `key` of `target`: `source` has none. A property whose value is
 * undefined is no JSON member: the walk skipped it, so it stays.
 */
function dropsMember(target: Record<string, unknown>, source: Record<string, unknown>, key: string): boolean {
  return !Object.hasOwn(source, key) && target[key] !== undefined;
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

/**
 * Where assignInPlace would have to change a part of `target` that cannot change (a frozen, sealed
 * or non-extensible object or array, a read-only property), as a JSON pointer; null where every
 * change it makes can be made. Asked first, so that a value is changed entirely or not at all.
 */
export function unchangeableAt(target: unknown, source: unknown, pointer = ''): string | null {
  if (isPlainObject(target) && isPlainObject(source)) {
    for (const key of Object.keys(target)) {
      if (dropsMember(target, source, key) && !Object.getOwnPropertyDescriptor(target, key)!.configurable) return memberPointer(pointer, key);
    }
    for (const key of Object.keys(source)) {
      const at = memberPointer(pointer, key);
      if (!Object.hasOwn(target, key)) {
        if (!Object.isExtensible(target)) return at;
        continue;
      }
      const inner = unchangeableAt(target[key], source[key], at);
      if (inner !== null) return inner;
      if (!staysInPlace(target[key], source[key]) && !writable(target, key)) return at;
    }
    return null;
  }
  if (Array.isArray(target) && Array.isArray(source)) {
    for (let index = 0; index < source.length; index++) {
      const at = `${pointer}/${index}`;
      if (index >= target.length) return Object.isExtensible(target) ? null : at;
      const inner = unchangeableAt(target[index], source[index], at);
      if (inner !== null) return inner;
      if (!staysInPlace(target[index], source[index]) && !writable(target, String(index))) return at;
    }
    return target.length === source.length || writable(target, 'length') ? null : pointer;
  }
  return null;
}

/** assignInPlace leaves `target` where it is: the same scalar, or a container of the same kind. */
function staysInPlace(target: unknown, source: unknown): boolean {
  return target === source || (isPlainObject(target) && isPlainObject(source)) || (Array.isArray(target) && Array.isArray(source));
}

function writable(object: object, key: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor === undefined || descriptor.writable === true || descriptor.set !== undefined;
}

function memberPointer(pointer: string, key: string): string {
  return `${pointer}/${escapePointerToken(key)}`;
}
