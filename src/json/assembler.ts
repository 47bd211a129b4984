// Builds the document from the same token events, exactly as JSON.parse would (for `parse: true`):
// `__proto__` becomes an own property, never the prototype; numbers are Number(text).

import type {TokenSink} from '../types.js';

export class Assembler implements TokenSink {
  private readonly stack: (Record<string, unknown> | unknown[])[] = [];
  private readonly keys: string[] = [];
  private key = '';
  value: unknown = undefined;

  private add(value: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) this.value = value;
    else if (Array.isArray(top)) top.push(value);
    else if (this.key === '__proto__') Object.defineProperty(top, '__proto__', {value, writable: true, enumerable: true, configurable: true});
    else top[this.key] = value;
  }

  startObject(): void {
    const object = {};
    this.add(object);
    this.stack.push(object);
    this.keys.push(this.key);
  }

  startArray(): void {
    const array: unknown[] = [];
    this.add(array);
    this.stack.push(array);
    this.keys.push(this.key);
  }

  endObject(): void {
    this.stack.pop();
    this.key = this.keys.pop()!;
  }

  endArray(): void {
    this.endObject();
  }

  keyValue(key: string): void {
    this.key = key;
  }

  stringValue(value: string): void {
    this.add(value);
  }

  numberValue(text: string): void {
    this.add(Number(text));
  }

  /** A scalar as its JavaScript value: a number that is a double already (value mode) is kept as it is, -0 included. */
  scalarValue(value: string | number | boolean | null): void {
    this.add(value);
  }

  nullValue(): void {
    this.add(null);
  }

  trueValue(): void {
    this.add(true);
  }

  falseValue(): void {
    this.add(false);
  }
}

/** Sends every event to two sinks: the evaluator first, then the assembler. */
export class TeeSink implements TokenSink {
  constructor(
    private readonly first: TokenSink,
    private readonly second: TokenSink,
  ) {}

  startObject(): void {
    this.first.startObject();
    this.second.startObject();
  }
  endObject(): void {
    this.first.endObject();
    this.second.endObject();
  }
  startArray(): void {
    this.first.startArray();
    this.second.startArray();
  }
  endArray(): void {
    this.first.endArray();
    this.second.endArray();
  }
  keyValue(key: string): void {
    this.first.keyValue(key);
    this.second.keyValue(key);
  }
  stringValue(value: string): void {
    this.first.stringValue(value);
    this.second.stringValue(value);
  }
  stringBegins(): void {
    this.first.stringBegins?.();
    this.second.stringBegins?.();
  }
  stringGrows(length: number): void {
    this.first.stringGrows?.(length);
    this.second.stringGrows?.(length);
  }
  numberValue(text: string): void {
    this.first.numberValue(text);
    this.second.numberValue(text);
  }
  nullValue(): void {
    this.first.nullValue();
    this.second.nullValue();
  }
  trueValue(): void {
    this.first.trueValue();
    this.second.trueValue();
  }
  falseValue(): void {
    this.first.falseValue();
    this.second.falseValue();
  }
}
