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

/** `file:line:column: kind: message (instance "/a/0", keyword "/properties/a/items/type")` */
function formatUnitText(name: string, unit: OutputUnit, style: Style): string {
  let position = '';
  if (unit.line !== undefined) position += `:${unit.line}`;
  if (unit.line !== undefined && unit.column !== undefined) position += `:${unit.column}`;
  const keyword = unit.kind === 'validation' ? `, keyword "${unit.keywordLocation}"` : '';
  return `${style.dim(`${name}${position}:`)} ${style.red(`${unit.kind}:`)} ${unit.error} ${style.dim(`(instance "${unit.instanceLocation}"${keyword})`)}\n`;
}
