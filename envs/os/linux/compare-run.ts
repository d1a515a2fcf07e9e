/**
 * `npm run compare:os`: a fidelity audit of the embedded shell against a real Linux. Plays every
 * task of the test and dev sets with its own example in the embedded shell (seed 1) and in Debian
 * under v86 (seeds 1 and 2), and prints the tasks whose observations differ:
 * - "look": Linux gives one answer for both seeds but the embedded shell another. Either the images
 *   differ (counts of system files, users, memory: the embedded shell copies upstream's Ubuntu,
 *   the machine is Debian) or the embedded shell is wrong: read the task.
 * - "random": Linux's two seeds differ too (the init draws from $RANDOM or /dev/urandom).
 * This is how N225, new-09, bootstrap-03 and bootstrap-78 were found (envs/os/README.md). Needs
 * the image (`npm run os:image`); about ten minutes. `--only TEXT` narrows to task ids containing
 * it, `--out FILE` writes every row as JSON.
 */
import { writeFileSync } from 'node:fs';
import { createOsEnv, OS_TASKS, OS_TEST_TASKS } from '../index.ts';
import { createEmbeddedShell } from '../embedded/index.ts';
import { solveByExample, type Solved } from '../solve.ts';
import { linuxImagePresent, linuxShellFactory } from './node.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
};

if (!linuxImagePresent()) {
  console.error('compare:os: the Linux image is not built: run `npm run os:image` (needs root and Debian/Ubuntu apt).');
  process.exit(1);
}

const embedded = createOsEnv({ shellFactory: ({ seed }) => createEmbeddedShell({ seed }) });
const linux = createOsEnv({ shellFactory: linuxShellFactory });
const only = arg('only');
const tasks = [...OS_TEST_TASKS, ...OS_TASKS].filter((t) => !only || t.id.includes(only));
/** What the example's turns printed, turn by turn. */
const observations = (solved: Solved) => solved.transcript.filter((_, i) => i % 2 === 1).join('\n---\n');
const rows: { id: string; verdict: 'same' | 'look' | 'random'; embedded: string; linux: string; linuxSeed2: string }[] = [];
for (const [n, task] of tasks.entries()) {
  const ours = observations(await solveByExample(embedded, task, 1));
  const real = observations(await solveByExample(linux, task, 1));
  const real2 = observations(await solveByExample(linux, task, 2));
  const verdict = ours === real ? 'same' : real === real2 ? 'look' : 'random';
  rows.push({ id: task.id, verdict, embedded: ours, linux: real, linuxSeed2: real2 });
  const brief = (s: string) => JSON.stringify(s.slice(0, 120));
  console.log(`${String(n + 1).padStart(3)}/${tasks.length} ${task.id} ${verdict}${verdict === 'look' ? `\n    embedded ${brief(ours)}\n    linux    ${brief(real)}` : ''}`);
}
const count = (v: string) => rows.filter((r) => r.verdict === v).length;
console.log(`compare:os: ${count('same')} the same, ${count('look')} to look at, ${count('random')} random, of ${rows.length}`);
const out = arg('out');
if (out) writeFileSync(out, JSON.stringify(rows, null, 1));
process.exit(0);
