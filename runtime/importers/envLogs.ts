/**
 * The environments whose benchmark logs can be imported, found through their catalogue lines
 * (`logs`, envs/<id>/logs.ts; the contract is envs/core/logs.ts): the importers ask each
 * environment instead of naming any.
 */
import { entries } from '../../envs/index.ts';
import type { EnvLogs } from '../../envs/core/logs.ts';

export type { EnvLogs };

/** The environments of suite `suite` (its id) whose logs can be imported, each with its answers, in catalogue order. */
export async function logSides(suite: string): Promise<{ id: string; logs: EnvLogs }[]> {
  const sides = await Promise.all(
    entries()
      .filter((e) => e.suites.some((m) => m.suite === suite) && e.logs)
      .map(async (e) => ({ id: e.id, logs: await e.logs!() })),
  );
  return sides;
}

/** Suite `suite`'s environment whose logs `owns` the file, or null. */
export async function logEnv(suite: string, owns: (logs: EnvLogs) => boolean): Promise<string | null> {
  return (await logSides(suite)).find((s) => owns(s.logs))?.id ?? null;
}
