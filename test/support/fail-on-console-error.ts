import { afterEach, vi } from 'vitest';

/**
 * A console.error during a test is a defect somewhere (a React warning, an unhandled refusal): it fails the
 * test. A test that expects one spies on console.error itself (vi.spyOn), which replaces this guard.
 */
const original = console.error;
let errors: unknown[][] = [];

console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};

afterEach(() => {
  const seen = errors;
  errors = [];
  if (vi.isMockFunction(console.error)) return;
  if (seen.length > 0) {
    throw new Error(
      `console.error was called during the test:\n${seen.map((a) => a.map(String).join(' ')).join('\n')}`,
    );
  }
});
