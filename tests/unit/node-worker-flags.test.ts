/**
 * Engine workers (envs/core/nodeWorker.ts) run a bundled plain-JavaScript module, so they start
 * without the tsx loader the process was started with, and keep every other flag.
 */
import { describe, expect, it } from 'vitest';
import { flagsWithoutTsx } from '../../envs/core/nodeWorker.ts';

describe('engine worker flags', () => {
  it("drops `tsx`'s loader flags as the tsx CLI and `node --import tsx` pass them", () => {
    expect(flagsWithoutTsx(['--require', '/p/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///p/node_modules/tsx/dist/loader.mjs'])).toEqual([]);
    expect(flagsWithoutTsx(['--import', 'tsx'])).toEqual([]);
    expect(flagsWithoutTsx(['--import=tsx/esm'])).toEqual([]);
  });

  it('keeps other flags, and loaders that are not tsx', () => {
    expect(flagsWithoutTsx(['--cpu-prof', '--import', './apm.mjs', '--import', 'tsx', '--max-old-space-size=100', '-r', 'dotenv/config'])).toEqual([
      '--cpu-prof',
      '--import',
      './apm.mjs',
      '--max-old-space-size=100',
      '-r',
      'dotenv/config',
    ]);
  });
});
