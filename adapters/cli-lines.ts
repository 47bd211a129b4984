// How `stream-schema validate` writes an error line, one per output unit: by this thread for the
// records it reads, and by each --jobs worker for the invalid records of its batches, so that only
// the lines travel back to this thread (adapters/ndjson-workers.ts, LineFormat).

import type { OutputUnit } from '../src/types.js';

export type OutputFormat = 'text' | 'json';

/** How text is marked up on one output stream: ANSI SGR sequences on a terminal, nothing elsewhere. */
export interface Style {
  red(text: string): string;
  dim(text: string): string;
}

export const PLAIN: Style = { red: (text) => text, dim: (text) => text };
export const ANSI: Style = { red: (text) => `\x1b[31m${text}\x1b[39m`, dim: (text) => `\x1b[2m${text}\x1b[22m` };

/** The line of `unit`, an error of the input `name`, ending in a line feed. */
export function formatUnit(name: string, unit: OutputUnit, format: OutputFormat, style: Style): string {
  return format === 'json' ? `${JSON.stringify({ file: name, ...unit })}\n` : formatUnitText(name, unit, style);
}

/**
 * `file:line:column: kind: message (instance "/a/0", keyword "/properties/a/items/type")`, one line
 * per error whatever the data holds: a name or file name with a line break or a terminal's escape
 * sequence is printed with those characters escaped (`\u001b`), as JSON would write them.
 */
function formatUnitText(name: string, unit: OutputUnit, style: Style): string {
  let position = '';
  if (unit.line !== undefined) position += `:${unit.line}`;
  if (unit.line !== undefined && unit.column !== undefined) position += `:${unit.column}`;
  const keyword = unit.kind === 'validation' ? `, keyword "${printable(unit.keywordLocation)}"` : '';
  return `${style.dim(`${printable(name)}${position}:`)} ${style.red(`${unit.kind}:`)} ${printable(unit.error)} ${style.dim(`(instance "${printable(unit.instanceLocation)}"${keyword})`)}\n`;
}

/** C0 and C1 controls, DEL, and the line and paragraph separators. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `text` with every character that would break its line or drive a terminal escaped. */
function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
