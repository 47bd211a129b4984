// The CLI (or another Node program) run as a child process from the project root, killed if it
// outlives its test: shared by the CLI's tests, its row of the hostile suite and its isolation test.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname;
export const CLI = ['--import', 'tsx', join(ROOT, 'adapters/cli.ts')];
export const CHILD_TIMEOUT_MS = 45_000;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], input: string | Uint8Array | undefined, env: NodeJS.ProcessEnv, timeout = CHILD_TIMEOUT_MS): Promise<Run> {
  return runNode([...CLI, ...args], input, env, timeout);
}

/**
 * Node run with `nodeArgs` from the project root (a built CLI, tsc…), `input` on its stdin. `stdout`
 * and `stdin` may be file descriptors of the test's own (a directory, /dev/full); `input` then goes nowhere.
 */
export function runNode(nodeArgs: string[], input: string | Uint8Array | undefined, env: NodeJS.ProcessEnv, timeout = CHILD_TIMEOUT_MS, stdout: 'pipe' | 'ignore' | number = 'pipe', stdin: 'pipe' | number = 'pipe'): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, env, timeout, stdio: [stdin, stdout, 'pipe'] });
    let printed = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (printed += text));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: printed, stderr }));
    child.stdin?.end(input);
  });
}

/**
 * The package built as `npm run build` builds it, one directory below the root: tsc's output, then
 * scripts/bundle.mjs's bundle of the `exports`, the bin and the NDJSON worker in <build>/bundle/.
 * `cli` is the bundled bin, `compiled` tsc's unbundled adapters/cli.js; remove `build` when done.
 */
export async function buildPackage(): Promise<{ build: string; bundle: string; cli: string; compiled: string }> {
  const build = mkdtempSync(join(ROOT, '.package-build-'));
  const tsc = await runNode([join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', build], undefined, process.env, 120_000);
  const compiled = join(build, 'adapters/cli.js');
  if (!existsSync(compiled)) throw new Error(`tsc emitted no adapters/cli.js: ${tsc.stdout}${tsc.stderr}`);
  const bundled = await runNode([join(ROOT, 'scripts/bundle.mjs'), build], undefined, process.env);
  const bundle = join(build, 'bundle');
  const cli = join(bundle, 'cli.js');
  if (bundled.code !== 0 || !existsSync(cli)) throw new Error(`scripts/bundle.mjs made no bundle/cli.js: ${bundled.stdout}${bundled.stderr}`);
  return { build, bundle, cli, compiled };
}
