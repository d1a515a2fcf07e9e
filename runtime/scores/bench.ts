/**
 * Time to compute the full scores report for 10,000 episodes / 300,000 steps (target ≤ 1 s
 * in Node). Synthetic episodes over every benchmark, 10 people, random, oracle and 3 models.
 * Run: npx tsx runtime/scores/bench.ts [episodes] [resamples]
 */
import { syntheticEpisodes } from './synthetic.ts';
import { computeScores, type TaskMeta } from './index.ts';
import { toCsv } from './format.ts';
import { taskMeta } from './taskmeta.ts';
import { suiteById } from '../../suites/index.ts';

const [SP, AB, ABD] = ['smartplay', 'agentbench', 'agentboard'].map(suiteById);
const COLUMN: Record<string, string> = { os: 'OS', db: 'DB', babyai: 'BA', pddl: 'PL' };

const EPISODES = Number(process.argv[2] ?? 10_000);
const RESAMPLES = Number(process.argv[3] ?? 1000);
const STEPS = 30;

const TASKS: { env: string; task: string; meta: TaskMeta }[] = [
  { env: 'hanoi', task: 'hanoi-3', meta: taskMeta(SP, undefined, { id: 'hanoi-3', name: 'Hanoi3Disk-v0' }) },
  { env: 'hanoi', task: 'hanoi-4', meta: taskMeta(SP, undefined, { id: 'hanoi-4', name: 'Hanoi4Disk-v0' }) },
  { env: 'bandits', task: 'bandits-highlow', meta: taskMeta(SP, undefined, { id: 'b', name: 'BanditTwoArmedHighLowFixed-v0' }) },
  { env: 'rps', task: 'rps-basic', meta: taskMeta(SP, undefined, { id: 'r', name: 'RockPaperScissorBasic-v0' }) },
  ...Array.from({ length: 26 }, (_, i) => ({ env: 'os', task: `os-dev-${i}`, meta: taskMeta(AB, COLUMN.os, { id: `os-dev-${i}`, name: '' }) })),
  ...Array.from({ length: 60 }, (_, i) => {
    const category = ['INSERT', 'UPDATE', 'counting', 'other', 'ranking', 'comparison'][i % 6];
    return { env: 'db', task: `db-dev-${i}`, meta: taskMeta(AB, COLUMN.db, { id: `db-dev-${i}`, name: '', category }) };
  }),
  ...Array.from({ length: 112 }, (_, i) => ({
    env: 'babyai',
    task: `babyai-${i}`,
    meta: taskMeta(ABD, COLUMN.babyai, { id: `babyai-${i}`, name: '', difficulty: i % 3 ? 'easy' : 'hard' }),
  })),
  ...Array.from({ length: 60 }, (_, i) => ({
    env: 'pddl',
    task: `pddl-${i}`,
    meta: taskMeta(ABD, COLUMN.pddl, { id: `pddl-${i}`, name: '', difficulty: i % 2 ? 'easy' : 'hard' }),
  })),
];
const META = new Map(TASKS.map((t) => [`${t.env}/${t.task}`, t.meta]));
const records = syntheticEpisodes(EPISODES, TASKS.map((t) => ({ env: t.env, task: t.task, table: t.meta.table })), STEPS);
const steps = records.reduce((a, r) => a + r.steps.length, 0);
const taskInfo = (env: string, task: string) => META.get(`${env}/${task}`);
computeScores(records.slice(0, 200), { taskInfo, resamples: RESAMPLES }); // warm up the JIT
// Wall time, and CPU time of this process (the machine may be shared: CPU time is what the work costs).
const wall: number[] = [];
const cpu: number[] = [];
let figures = 0;
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const report = computeScores(records, { taskInfo, resamples: RESAMPLES, humanSource: i === 1 ? 'recorded' : 'published' });
  const c = process.cpuUsage(c0);
  wall.push(performance.now() - t0);
  cpu.push((c.user + c.system) / 1000);
  figures = toCsv(report).split('\n').length - 2;
}
const ms = (xs: number[]) => `${xs.map((t) => t.toFixed(0)).join(' / ')} ms (best ${Math.min(...xs).toFixed(0)})`;
console.log(`scores: ${records.length} episodes / ${steps} steps, ${RESAMPLES} resamples, ${figures} figures (CSV lines); target ≤ 1000 ms`);
console.log(`  wall ${ms(wall)}`);
console.log(`  cpu  ${ms(cpu)}`);
