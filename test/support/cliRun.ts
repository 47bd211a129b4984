// The CLI run as a child process through tsx, from the project root, killed if it outlives its
// test: shared by test/cli.test.ts and test/cli-jobs.test.ts.

import { spawn } from 'node:child_process';
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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env, timeout, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
