// A command run on a pseudo-terminal, as a user at a terminal runs it, and the lines the terminal
// then shows. Node has no pty module; util-linux script(1) gives the command a terminal and copies
// what the terminal received, stdout and stderr interleaved as they were written, to its stdout.

import { spawn, spawnSync } from 'node:child_process';

export const hasScript = spawnSync('script', ['--version']).status === 0;

export interface TerminalRun {
  code: number | null;
  /** What the terminal received, control sequences included (its LFs become CR LF). */
  output: string;
}

/** Runs `argv` on a pseudo-terminal; `env` replaces the environment (script passes it on). */
export function runInTerminal(argv: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeout: number }): Promise<TerminalRun> {
  if (!hasScript) throw new Error('script(1) from util-linux is needed to run a command on a pseudo-terminal');
  const command = argv.map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    // -q: no "Script started" lines; -e: script exits with the command's code; -f: flush as written.
    const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd: options.cwd, env: { ...options.env, SHELL: '/bin/sh' }, timeout: options.timeout, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

const CONTROL_SEQUENCE = /^\x1b\[([0-9;]*)([A-Za-z])/;

/**
 * The lines a terminal shows for `output`: CR moves to the start of the line, ESC [ K clears from
 * there to its end, each character overwrites the one under the cursor; colours (ESC [ ... m) draw
 * nothing. Any other control sequence is an error: the model would not know what it shows.
 */
export function screenLines(output: string): string[] {
  const lines = output.split('\n').map(screenLine);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function screenLine(received: string): string {
  const cells: string[] = [];
  let cursor = 0;
  for (let index = 0; index < received.length; index++) {
    const character = received[index];
    if (character === '\r') {
      cursor = 0;
    } else if (character === '\x1b') {
      const sequence = CONTROL_SEQUENCE.exec(received.slice(index));
      if (sequence === null || (sequence[2] !== 'K' && sequence[2] !== 'm') || (sequence[2] === 'K' && sequence[1] !== '')) {
        throw new Error(`unexpected control sequence ${JSON.stringify(received.slice(index, index + 8))}`);
      }
      if (sequence[2] === 'K') cells.length = Math.min(cells.length, cursor);
      index += sequence[0].length - 1;
    } else {
      cells[cursor++] = character;
    }
  }
  return cells.join('');
}
