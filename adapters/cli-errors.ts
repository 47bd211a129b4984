// The command line's own errors, and the parsers of option values that raise them: shared by
// adapters/cli.ts and adapters/cli-jobs.ts.

import { parseLimit } from './http-errors.js';

/** A mistake in the command line: exit code 2, with this message and a pointer to --help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** A file that cannot be used (unreadable, not JSON, ...): exit code 2, reported where it is. */
export class FileError extends Error {
  override readonly name = 'FileError';
  readonly code: string;
  /** `file` or `file:line:column`; the message is printed after it. */
  readonly location: string;

  constructor(code: string, location: string, message: string) {
    super(message);
    this.code = code;
    this.location = location;
  }
}

/** A size in bytes, as the library's `limit` reads one: `1048576`, `1mb`. */
export function parseSize(option: string, text: string, most = Infinity): number {
  let size = 0;
  try {
    size = parseLimit(text);
  } catch {
    // Not a size: the usage error below says what one looks like.
  }
  if (size < 1) throw new UsageError('cli.size', `${option} must be a size in bytes, such as 1048576 or 1mb, got "${text}"`);
  if (size > most) throw new UsageError('cli.size', `${option} must be at most ${most} bytes, got "${text}"`);
  return size;
}

/** Decimal digits only: `Number` would also take "1e2", "0x2" and " 2". */
export function parsePositiveInteger(option: string, text: string, most = Number.MAX_SAFE_INTEGER): number {
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError('cli.integer', `${option} must be a positive integer, got "${text}"`);
  if (value > most) throw new UsageError('cli.integer', `${option} must be at most ${most}, got "${text}"`);
  return value;
}
