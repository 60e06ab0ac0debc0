import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { passedOn } from './server-process.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Runs one of the project's scripts as an operator does (`npm run …` is `tsx <script>`), in the project folder,
 * with nothing of the test's environment but PATH and HOME plus `env`, and `input` piped to stdin.
 */
export function runScript(
  script: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): { code: number | null; stdout: string; stderr: string; output: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...passedOn(), ...options.env },
    encoding: 'utf8',
    input: options.input,
    timeout: 120_000,
  });
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    output: `${result.stdout}${result.stderr}`,
  };
}

/**
 * `runScript` without blocking this process: the test goes on (a load it drives keeps booking) while the
 * script runs.
 */
export function runScriptAsync(
  script: string,
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...passedOn(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
