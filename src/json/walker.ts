// Value mode: replay an already-parsed JavaScript value as the same token events the tokenizer
// produces, so every keyword runs the same code in both modes. An explicit stack, not recursion:
// depth is a limit we choose (limits.maxDepth), not the JavaScript call stack.

import {InputError, NO_POSITION} from '../output/errors.js';
import {escapePointerToken} from './pointer.js';
import {exceeded} from './limits.js';
import type {Limits, TokenSink} from '../types.js';


/** An input error at the value being walked, located by the walk's stack. */
function walkError(stack: readonly Open[], kind: 'syntax' | 'limit', code: string, message: string): InputError {
  const error = new InputError(kind, code, message, NO_POSITION);
  error.instanceLocation = stack.map((open) => '/' + escapePointerToken(open.keys === null ? String(open.index - 1) : open.keys[open.index - 1])).join('');
  return error;
}

/**
 * A value whose reading threw (a getter, a Proxy trap): input, not a fault of ours, so it is
 * reported like any value that is not JSON instead of escaping the call.
 */
function unreadable(stack: readonly Open[], error: unknown): InputError {
  const reason = error instanceof Error ? error.message : String(error);
  return walkError(stack, 'syntax', 'value.unreadable', `reading the value threw: ${reason}`);
}

interface Open {
  readonly value: Record<string, unknown> | unknown[];
  readonly keys: string[] | null;
  index: number;
}

/** Something that can say it wants no more events (the evaluator, once the verdict is known). */
export interface StoppableSink extends TokenSink {
  readonly stopped: boolean;
  /** A number as a double: a parsed value has no number text. */
  numberValueOf(value: number): void;
}

export function walkValue(value: unknown, sink: StoppableSink, limits: Required<Limits>): void {
  const stack: Open[] = [];
  let next: unknown = value;
  for (;;) {
    // Deliver `next`.
    if (next === null) sink.nullValue();
    else if (typeof next === 'string') {
      if (next.length > limits.maxStringLength) throw walkError(stack, 'limit', 'limit.string', exceeded('limit.string', limits.maxStringLength));
      sink.stringValue(next);
    } else if (typeof next === 'number') {
      if (!Number.isFinite(next)) throw walkError(stack, 'syntax', 'value.notJson', `${next} is not a JSON number`);
      sink.numberValueOf(next);
    } else if (typeof next === 'boolean') {
      if (next) sink.trueValue();
      else sink.falseValue();
    } else if (isArray(next, stack)) {
      if (stack.length >= limits.maxDepth) throw walkError(stack, 'limit', 'limit.depth', exceeded('limit.depth', limits.maxDepth));
      sink.startArray();
      stack.push({value: next, keys: null, index: 0});
    } else if (typeof next === 'object') {
      if (stack.length >= limits.maxDepth) throw walkError(stack, 'limit', 'limit.depth', exceeded('limit.depth', limits.maxDepth));
      let keys: string[];
      try {
        keys = Object.keys(next as object);
      } catch (error) {
        throw unreadable(stack, error);
      }
      if (keys.length > limits.maxProperties) throw walkError(stack, 'limit', 'limit.properties', exceeded('limit.properties', limits.maxProperties));
      sink.startObject();
      stack.push({value: next as Record<string, unknown>, keys, index: 0});
    } else {
      throw walkError(stack, 'syntax', 'value.notJson', `a ${typeof next} is not a JSON value`);
    }
    // Find the next value to deliver, closing finished containers.
    for (;;) {
      if (sink.stopped) return;
      const open = stack[stack.length - 1];
      if (open === undefined) return;
      if (open.keys === null) {
        const array = open.value as unknown[];
        try {
          if (open.index < array.length) {
            next = array[open.index++];
            break;
          }
        } catch (error) {
          throw unreadable(stack, error);
        }
        stack.pop();
        sink.endArray();
      } else {
        if (open.index < open.keys.length) {
          const key = open.keys[open.index++];
          // One keyed read per property (a second one cost a third of the walk).
          let member: unknown;
          try {
            member = (open.value as Record<string, unknown>)[key];
          } catch (error) {
            throw unreadable(stack, error);
          }
          // As JSON.stringify does, a property whose value is undefined is not there.
          if (member === undefined) continue;
          if (key.length > limits.maxKeyLength) throw walkError(stack, 'limit', 'limit.key', exceeded('limit.key', limits.maxKeyLength));
          sink.keyValue(key);
          next = member;
          if (sink.stopped) return;
          break;
        }
        stack.pop();
        sink.endObject();
      }
    }
  }
}

/** Array.isArray, which throws for a revoked Proxy. */
function isArray(value: unknown, stack: readonly Open[]): value is unknown[] {
  try {
    return Array.isArray(value);
  } catch (error) {
    throw unreadable(stack, error);
  }
}
