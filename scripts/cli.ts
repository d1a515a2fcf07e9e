/**
 * agentplay's command line: list tasks, print a manual, or play an episode
 * headless with one raw action per stdin line, through the same episode
 * machine the app uses. Usage: npm run -s cli -- help
 */
import { UsageError, parseFlags } from './flags.ts';
import { createInterface } from 'node:readline';
import { entries, envIds, findEntry, getTask, loadEnv, registerEnv, type EnvEntry } from '../envs/index.ts';
import { startEpisode, whenIdle } from '../envs/core/runner.ts';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HistoryEntry } from '../envs/core/episode.ts';
import type { EnvDefinition, TaskInfo } from '../envs/core/types.ts';
import { recordOfEpisode, type EpisodeHeader, type EpisodeRecord } from '../runtime/records.ts';
import { TextSourceError, modelDriver, policyDriver, textDriver, type Driver } from '../runtime/drivers/driver.ts';
import { runEpisodes } from '../runtime/runEpisodes.ts';
import { createOpenAIClient } from '../runtime/models/openai.ts';
import { toJsonl } from '../runtime/jsonl.ts';
import { SCORES_USAGE, scoresCommand } from './scores.ts';
import { REFERENCE_USAGE, recordSet, referenceCommand } from './reference.ts';
import { batchSummary } from '../runtime/batch.ts';
import { episodesOf } from '../runtime/plan.ts';
import { suiteNames, suiteOf } from '../suites/index.ts';
import { envTaskInfo } from '../runtime/taskInfo.ts';
import { taskIdPrefix } from '../runtime/taskFiles.ts';
import { evaluate, hasSplits, parseShard, progressBar, progressLine, resolveEnvSuites } from '../runtime/eval/index.ts';
import { hasContent } from '../runtime/eval/output.ts';
// Heavy engines off the CLI's thread (issue 16): sql.js and the embedded shell run in worker threads
// with a hard deadline enforced from outside and a bounded heap, as in the browser.
import { useWorkerEngines } from './workerEngines.ts';

const APP_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

const EVAL_USAGE = `  npm run -s cli -- eval --env ENV|BENCHMARK[,…] --agent random|oracle|openai --out FILE.jsonl
        [--split dev|test] [--task ID[,ID…]] [--seeds N] [--seed N] [--concurrency N]
        [--resume] [--shard I/N] [--max-steps N]
        [--base-url URL --model NAME [--api-key KEY] [--temperature T] [--max-tokens N]]
        plays every task of a benchmark's set: --env takes environment ids or benchmark names
        (smartplay, agentbench, agentboard); environments with splits (os, db) play --split
        (default test); SmartPlay plays its published games its recorded number of times
        (20/20/10/100; --seeds N for another count), AgentBench and AgentBoard each task once.
        At most --concurrency episodes are in flight (default 8). Each episode is appended to
        --out as it finishes (the app's JSON Lines export). --resume skips the (task, seed)
        pairs the file holds complete and plays again those stopped by infrastructure failures
        (the endpoint still failing after its retries: recorded as infraError, not scored).
        --shard I/N plays every N-th episode from the I-th; the N files concatenated are one
        full run. Progress goes to stderr; at the end the scores table of --out is printed
        (exactly \`scores FILE\`). Exit 0 when every episode was played, 1 when some still
        need --resume, 2 on bad usage.`;

/** A backend's id as the episode header records it. */
type Shell = NonNullable<EpisodeHeader['shell']>;

const USAGE = `Usage:
  npm run -s cli -- envs
  npm run -s cli -- tasks --env ENV [--task-file FILE]
  npm run -s cli -- manual --env ENV --task TASK [--seed N]
  npm run -s cli -- run --env ENV --task TASK [--seed N] [--max-steps N] [--reset-line]
        [--agent random|oracle|openai] (--driver is the same flag) [--episodes N] [--out FILE.jsonl]
        [--base-url URL --model NAME [--api-key KEY] [--temperature T] [--max-tokens N]]
        [--valid-actions] (adds validActions to each line: the actions in the environment's order;
        for a game below a protocol, ALFWorld, the game's own commands, and every line carries
        \`text\`, the game's own feedback)
        [--shell embedded|linux] (os only: the simulated shell, default, or real Linux in the
        v86 emulator, restored per episode from the image \`npm run os:image\` builds)
        reads one raw action per line from stdin (--input raw), or for AgentBench
        environments (os, db) one JSON string per line, the reply (--input jsonl, their default);
        prints one JSON object per step
        (t, action, observation, reward, valid, terminated, truncated, score, and the environment's
        info where it gives one, e.g. Crafter's achievements and inventory),
        then a final line {score, success, steps, finishReason}.
        --reset-line also prints the reset observation first as {t: 0, observation}.
        --agent plays without stdin: random (uniform over valid actions, seeded by --seed),
        oracle (privileged: sees the hidden state), or openai (a model behind an
        OpenAI-compatible endpoint; the key comes from OPENAI_API_KEY or --api-key and is
        never printed or written). --episodes N plays N episodes with seeds N..N+k and prints
        one outcome line each and a summary. --out writes the episodes as the app's JSONL export.
        --task-file FILE loads tasks in the benchmark's own format (db: dev.jsonl lines; os: a
        dev.json list, "file" scripts read beside it); without --task the first task in the file plays.
        --episodes without a number plays the benchmark's count (SmartPlay: 20 of Bandit and RPS,
        10 of Hanoi). A batch ends with the benchmark's metric per game or task set (SmartPlay score
        and normalised score; AgentBench success rate; AgentBoard progress, success, grounding).
  npm run -s cli -- run --env ENV --all-tasks --agent random|oracle|openai [--episodes N] [--out FILE.jsonl]
        every task of the environment's set under the benchmark's protocol (AgentBench and
        AgentBoard: each task once), one outcome line per episode, then the summary.
${EVAL_USAGE}
${REFERENCE_USAGE}
${SCORES_USAGE}
  npm run -s cli -- verify FILE.jsonl… [--env ENV] [--model NAME] [--json]
        re-runs each episode and compares it with its record (exit 0 all verified, 1 not).
  npm run -s cli -- import FILE… [-o OUT] [--env ENV] [--model NAME]
        writes a benchmark log's episodes (AgentBoard logs/*.jsonl, AgentBench runs.jsonl) as
        the app's JSON Lines export.
AGENTPLAY_ENVS=module.ts[,…] adds environments from modules that call registerEnv (envs/index.ts).
Environments: ${envIds().join(', ')}`;



function required(flags: Map<string, string | true>, name: string): string {
  const value = flags.get(name);
  if (typeof value !== 'string') throw new UsageError(`Missing --${name}.`);
  return value;
}

function integer(flags: Map<string, string | true>, name: string, fallback: number): number {
  const value = flags.get(name);
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number.`);
  return Number(value);
}

async function* stdinLines(): AsyncGenerator<string> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) yield line;
}


/** Replies that span lines (AgentBench): one JSON string per stdin line, e.g. "Act: bash\n```bash\nls\n```". */
async function* stdinJsonStrings(): AsyncGenerator<string> {
  let n = 0;
  for await (const line of stdinLines()) {
    n++;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new TextSourceError(`stdin line ${n}: not valid JSON (${err instanceof Error ? err.message : err}); each line must be one JSON string, the reply.`);
    }
    if (typeof value !== 'string') throw new TextSourceError(`stdin line ${n}: expected a JSON string (the reply), got ${Array.isArray(value) ? 'an array' : typeof value}.`);
    yield value;
  }
}

async function* mapLines(lines: AsyncIterable<string> | Iterable<string>, f: (line: string) => string): AsyncIterable<string> {
  for await (const line of lines) yield f(line);
}

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};

/** What --valid-actions and an environment with a game below its protocol add to a printed line. */
function gameFields(env: EnvDefinition, state: unknown, flags: Map<string, string | true>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const game = env.gameView?.(state);
  if (game) out.text = game.text;
  if (flags.has('valid-actions')) out.validActions = game ? game.commands : env.validActions(state);
  return out;
}

const stepLine = (e: HistoryEntry) => ({
  t: e.t,
  action: e.action,
  observation: e.observation,
  reward: e.reward,
  valid: e.valid,
  terminated: e.terminated,
  truncated: e.truncated,
  score: e.score,
  // The environment's facts about the step (Crafter: upstream's achievements and inventory), where it gives any.
  ...(e.info !== undefined ? { info: e.info } : {}),
});

/** Who plays (the "agent"; the app calls it the driver): stdin lines, a scripted policy, or a model behind an OpenAI-compatible endpoint. */
function chooseDriver(flags: Map<string, string | true>, env: EnvDefinition, task: TaskInfo, episodes: number): (seed: number) => Driver {
  if (flags.has('agent') && flags.has('driver')) throw new UsageError('Give --agent or --driver (the same flag), not both.');
  const agent = flags.get('agent') ?? flags.get('driver');
  if (agent === undefined) {
    if (episodes > 1) throw new UsageError('--episodes needs --agent (stdin plays one episode).');
    // Where the suite's replies span lines (AgentBench), stdin is read as JSON Lines unless told otherwise.
    const input = flags.get('input') ?? (suiteOf(env, undefined, task).multiLineReplies ? 'jsonl' : 'raw');
    if (input !== 'raw' && input !== 'jsonl') throw new UsageError('--input is raw or jsonl.');
    if (input === 'jsonl') return () => textDriver(stdinJsonStrings(), 'stdin');
    // A game below a protocol (ALFWorld): raw lines are the game's own commands, sent as the protocol's reply.
    const toReply = env.fromCommand;
    return () => textDriver(toReply ? mapLines(stdinLines(), (line) => toReply(task, line)) : stdinLines(), 'stdin');
  }
  if (agent === 'random' || agent === 'oracle') {
    if (agent === 'oracle' && !env.oracleAction) throw new UsageError(`${env.id} has no oracle.`);
    return (seed) => policyDriver(agent, env, task, { seed });
  }
  if (agent === 'openai') {
    const baseUrl = required(flags, 'base-url');
    const model = required(flags, 'model');
    const apiKey = (flags.get('api-key') as string | undefined) ?? process.env.OPENAI_API_KEY;
    const temperature = flags.has('temperature') ? Number(flags.get('temperature')) : undefined;
    const maxTokens = flags.has('max-tokens') ? integer(flags, 'max-tokens', 0) : undefined;
    if (temperature !== undefined && !Number.isFinite(temperature)) throw new UsageError('--temperature takes a number.');
    const client = createOpenAIClient({ baseUrl, model, apiKey, stream: false });
    const driver = modelDriver(client, env, task, { temperature, maxTokens });
    return () => driver;
  }
  throw new UsageError('--agent is random, oracle or openai.');
}

/** --task-file FILE: the benchmark's own task format, registered with the environment; returns the new tasks. */
function importTaskFile(env: EnvDefinition, flags: Map<string, string | true>): TaskInfo[] {
  const file = flags.get('task-file');
  if (file === undefined) return [];
  if (file === true) throw new UsageError('--task-file takes a file name.');
  if (!env.importTasks) throw new UsageError(`${env.id} takes no task files.`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`Cannot read ${file}: ${err instanceof Error ? err.message : err}`);
  }
  const dir = dirname(resolvePath(file));
  const readBeside = (path: string): string | undefined => {
    try {
      return readFileSync(resolvePath(dir, path), 'utf8');
    } catch {
      return undefined;
    }
  };
  try {
    // The ids a browser gives the same file (runtime/taskFiles.ts), so records of either match.
    return env.importTasks(text, readBeside, { prefix: taskIdPrefix(env.id, basename(file), text) });
  } catch (err) {
    throw new Error(`${file}: ${err instanceof Error ? err.message : err}`);
  }
}

/**
 * --shell: which of the environment's backends its episodes run on (recorded in each episode's
 * header), for an environment that has a choice (EnvDefinition.backends), set through its Node side.
 */
async function chooseBackend(env: EnvDefinition, flags: Map<string, string | true>): Promise<Shell | undefined> {
  const id = flags.get('shell');
  if (id === undefined) return undefined;
  if (!env.backends) throw new UsageError(`--shell applies to an environment with a choice of backends: ${env.id} has one.`);
  const { ids } = env.backends;
  if (id === true || !ids.includes(id)) throw new UsageError(`--shell takes ${ids.join(', ')}, not ${JSON.stringify(id)}.`);
  const side = await findEntry(env.id).node?.();
  if (!side?.useBackend) throw new UsageError(`${env.id} chooses its backend in the browser only.`);
  try {
    await side.useBackend(id);
  } catch (err) {
    throw new UsageError(`--shell ${id}: ${err instanceof Error ? err.message : err}`);
  }
  return id as Shell; // one of the environment's backends: the header's picklist holds them
}

async function run(flags: Map<string, string | true>): Promise<void> {
  const env = await loadEnv(required(flags, 'env'));
  const shell = await chooseBackend(env, flags);
  if (flags.get('all-tasks') === true) return runSet(env, flags, shell);
  const imported = importTaskFile(env, flags);
  // With a task file and no --task, play its first task.
  const task = !flags.has('task') && imported.length > 0 ? imported[0] : getTask(env, required(flags, 'task'));
  const seed = integer(flags, 'seed', 0);
  // --episodes alone: the suite's own count for this task (the plan's, as eval and the app's batches count).
  if (flags.get('episodes') === true) flags.set('episodes', String(episodesOf(env, task)));
  const episodes = integer(flags, 'episodes', 1);
  if (episodes < 1) throw new UsageError('--episodes must be at least 1.');
  const maxSteps = flags.has('max-steps') ? integer(flags, 'max-steps', 0) : undefined;
  if (maxSteps !== undefined && maxSteps < 1) throw new UsageError('--max-steps must be at least 1.');
  const out = flags.get('out');
  if (out === true) throw new UsageError('--out takes a file name.');
  const driverFor = chooseDriver(flags, env, task, episodes);

  const records: EpisodeRecord[] = [];
  let failure = null as string | null;
  const single = episodes === 1;
  const startedAt = new Map<number, string>();
  let current: ReturnType<typeof startEpisode> | null = null;
  await runEpisodes({
    seeds: Array.from({ length: episodes }, (_, e) => seed + e),
    unfinished: 'give-up',
    driverFor,
    open: async (episodeSeed) => {
      startedAt.set(episodeSeed, new Date().toISOString());
      const actor = startEpisode(env, task, { seed: episodeSeed, maxSteps });
      const ready = await whenIdle(actor);
      if (ready.context.error) throw new Error(ready.context.error);
      if (single && flags.has('reset-line')) print({ t: 0, observation: ready.context.observation, score: ready.context.score, ...gameFields(env, ready.context.state, flags) });
      current = actor;
      return actor;
    },
    onStep: (entry) => single && print({ ...stepLine(entry), ...(current ? gameFields(env, current.getSnapshot().context.state, flags) : {}) }),
    close: (run) => {
      // Input ended, the policy had no action, or the model failed before the episode did: the driver stopped, as GIVE_UP.
      const final = run.actor.getSnapshot();
      if (final.context.error) process.stderr.write(`${final.context.error}\n`);
      const output = final.output!;
      print(single ? output : { episode: records.length + 1, seed: run.seed, ...output });
      if (run.result.error) failure = run.result.error.message;
      const id = randomUUID();
      const endedAt = new Date().toISOString();
      const record = recordOfEpisode(final.context, { id, driver: run.driver.info, appVersion: APP_VERSION, startedAt: startedAt.get(run.seed)!, endedAt, outcome: output });
      if (shell) record.header.shell = shell;
      records.push(record);
    },
  });
  if (episodes > 1) print(summaryLine(records, env));
  // Whatever was played is written, even when a model failed part-way.
  if (typeof out === 'string') writeFileSync(out, toJsonl(records));
  if (failure) throw new Error(failure);
}

/**
 * A batch's last line: the mean score, the success rate only where the game defines success
 * (no "success 0/20" for SmartPlay's games), and the benchmark's metric per group and set
 * (runtime/batch.ts), also as text on stderr.
 */
function summaryLine(records: EpisodeRecord[], env: EnvDefinition): Record<string, unknown> {
  const scores = records.map((r) => r.header.outcome!.score);
  const defined = records.filter((r) => r.header.outcome!.success !== null);
  const line: Record<string, unknown> = { episodes: records.length, meanScore: scores.reduce((a, b) => a + b, 0) / scores.length };
  if (defined.length > 0) line.successRate = defined.filter((r) => r.header.outcome!.success === true).length / defined.length;
  const summary = batchSummary(records, envTaskInfo([env]));
  if (summary.figures.length > 0) {
    line.benchmark = suiteOf(env).name;
    line.metrics = summary.figures.map(({ group, set, metric, value, low, high, n }) => ({ group, set, metric, value, low, high, n }));
    for (const text of summary.lines) process.stderr.write(`${text}\n`);
  }
  return line;
}

/** run --all-tasks: every task of the set under the benchmark's protocol, one outcome line each, then the summary. */
async function runSet(env: EnvDefinition, flags: Map<string, string | true>, shell?: Shell): Promise<void> {
  if (!flags.has('agent') && !flags.has('driver')) throw new UsageError('--all-tasks needs --agent (stdin plays one episode).');
  const episodes = flags.get('episodes') === undefined || flags.get('episodes') === true ? undefined : integer(flags, 'episodes', 1);
  if (episodes !== undefined && episodes < 1) throw new UsageError('--episodes must be at least 1.');
  const maxSteps = flags.has('max-steps') ? integer(flags, 'max-steps', 0) : undefined;
  const out = flags.get('out');
  if (out === true) throw new UsageError('--out takes a file name.');
  const drivers = new Map<string, (seed: number) => Driver>();
  let n = 0;
  const { records, error } = await recordSet(
    env,
    (task, seed) => {
      if (!drivers.has(task.id)) drivers.set(task.id, chooseDriver(flags, env, task, 2));
      return drivers.get(task.id)!(seed);
    },
    { seed: integer(flags, 'seed', 0), episodes, maxSteps, onEpisode: (task, output, seed) => print({ episode: ++n, task: task.id, seed, ...output }) },
  );
  if (shell) for (const r of records) r.header.shell = shell;
  if (records.length > 0) print(summaryLine(records, env));
  if (typeof out === 'string') writeFileSync(out, toJsonl(records));
  if (error) throw error;
}

/** `eval`: a whole task set with concurrency, resume and shards (runtime/eval); prints the scores table of --out. */
async function evalCommand(flags: Map<string, string | true>): Promise<number> {
  const known = ['env', 'split', 'task', 'seeds', 'seed', 'agent', 'driver', 'base-url', 'model', 'api-key', 'temperature', 'max-tokens', 'concurrency', 'out', 'resume', 'shard', 'max-steps'];
  for (const name of flags.keys()) if (!known.includes(name)) throw new UsageError(`Unknown option --${name} for eval.`);
  if (!flags.has('agent') && !flags.has('driver')) throw new UsageError('eval needs --agent random, oracle or openai.');
  const out = required(flags, 'out');
  const positive = (name: string, fallback: number | undefined): number | undefined => {
    if (!flags.has(name)) return fallback;
    const n = integer(flags, name, 0);
    if (n < 1) throw new UsageError(`--${name} must be at least 1.`);
    return n;
  };
  const split = flags.get('split');
  if (split !== undefined && split !== 'dev' && split !== 'test') throw new UsageError('--split is dev or test.');
  const taskFlag = flags.get('task');
  if (taskFlag === true) throw new UsageError('--task takes task ids.');
  const shardFlag = flags.get('shard');
  if (shardFlag === true) throw new UsageError('--shard takes I/N, e.g. 1/4.');
  let shard: { index: number; count: number } | undefined;
  try {
    shard = shardFlag === undefined ? undefined : parseShard(shardFlag);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const envSuites = resolveEnvSuites(required(flags, 'env'), entries());
  const envs = await Promise.all([...envSuites.keys()].map((id) => loadEnv(id)));
  if (split !== undefined && !envs.some(hasSplits)) throw new UsageError(`${envs.map((e) => e.id).join(', ')} ${envs.length === 1 ? 'has' : 'have'} no dev/test split; leave out --split.`);

  // One driver maker per task (the model client is made once per task, as in `run --all-tasks`).
  const makers = new Map<string, (seed: number) => Driver>();
  const driverFor = (env: EnvDefinition, task: TaskInfo, seed: number): Driver => {
    const key = `${env.id}/${task.id}`;
    if (!makers.has(key)) makers.set(key, chooseDriver(flags, env, task, 2));
    return makers.get(key)!(seed);
  };

  // First Ctrl-C: stop starting episodes and drop those in flight (the file stays whole); second: quit.
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nStopping: episodes in flight are dropped; --resume continues the run.\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const tty = process.stderr.isTTY === true;
  const t0 = performance.now();
  let total = 0;
  let done = 0;
  let errors = 0;
  const counts = () => ({ done, total, errors, elapsed: (performance.now() - t0) / 1000 });
  const redraw = () => process.stderr.write(`\r\x1b[2K${progressBar(counts())}`);
  const ticker = tty ? setInterval(redraw, 1000) : undefined;
  try {
    const result = await evaluate({
      envs,
      suites: envSuites,
      split: split as 'dev' | 'test' | undefined,
      tasks: typeof taskFlag === 'string' ? taskFlag.split(',').filter(Boolean) : undefined,
      seeds: positive('seeds', undefined),
      firstSeed: integer(flags, 'seed', 0),
      shard,
      out,
      resume: flags.get('resume') === true,
      driverFor,
      concurrency: positive('concurrency', 8),
      maxSteps: positive('max-steps', undefined),
      appVersion: APP_VERSION,
      signal: controller.signal,
      onPlan: (p) => {
        total = p.toPlay;
        const held = p.held > 0 ? `; ${p.held} already in ${out}${p.retried > 0 ? `, ${p.retried} infrastructure failure(s) to play again` : ''}` : '';
        process.stderr.write(`eval: ${p.toPlay} episode(s) to play of ${p.total}${shard ? ` (shard ${shard.index}/${shard.count})` : ''}${held}\n`);
        if (tty) redraw();
      },
      onEpisode: ({ unit, record, infraError }) => {
        done++;
        if (infraError) errors++;
        if (tty) return redraw();
        const o = record.header.outcome;
        const what = infraError ? `infrastructure failure (${infraError.kind}): ${infraError.message}` : `${o!.finishReason}, score ${o!.score}`;
        process.stderr.write(`${progressLine(counts(), `${unit.env.id} ${unit.task.id} seed ${unit.seed}`, what)}\n`);
      },
    });
    if (tty) process.stderr.write(`\r\x1b[2K${progressBar(counts())}\n`);
    if (result.stopped) process.stderr.write(`eval stopped (${result.stopped.reason}): ${result.stopped.message}\n`);
    const left = total - (result.written - result.failures);
    if (left > 0) process.stderr.write(`${left} episode(s) not yet complete: run the same command with --resume to play them.\n`);
    // The table is exactly what `scores FILE` prints.
    if (hasContent(out)) {
      const code = await scoresCommand([out], (text) => process.stdout.write(text));
      if (code !== 0) return code;
    }
    return left > 0 ? 1 : 0;
  } finally {
    if (ticker) clearInterval(ticker);
    process.off('SIGINT', onSigint);
  }
}

/** AGENTPLAY_ENVS: modules (comma-separated paths) whose default export is a catalogue line, or that call registerEnv. */
async function loadExtraEnvs(): Promise<void> {
  for (const path of (process.env.AGENTPLAY_ENVS ?? '').split(',').filter(Boolean)) {
    const m = (await import(pathToFileURL(resolvePath(path)).href)) as { default?: EnvEntry };
    if (m.default) registerEnv(m.default);
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    await loadExtraEnvs();
    if (!command || command === 'help' || command === '--help') {
      process.stdout.write(`${USAGE}\n`);
      return command ? 0 : 2;
    }
    if (command === 'run' || command === 'eval' || command === 'verify' || command === 'reference') await useWorkerEngines();
    // `scores FILE.jsonl…` takes file names, not flags only: its own parser (scripts/scores.ts).
    if (command === 'scores') return await scoresCommand(rest, (text) => process.stdout.write(text));
    if (command === 'verify') {
      const { verifyCommand } = await import('./verify.ts');
      return await verifyCommand(rest, (s) => process.stdout.write(s), (s) => process.stderr.write(s));
    }
    if (command === 'import') {
      const { importCommand } = await import('./import.ts');
      return await importCommand(rest, (s) => process.stdout.write(s), (s) => process.stderr.write(s));
    }
    if (command === 'reference') return await referenceCommand(rest, (text) => process.stdout.write(text));
    const flags = parseFlags(rest);
    switch (command) {
      case 'envs':
        for (const e of entries()) process.stdout.write(`${e.id}\t${suiteNames(e).join(',')}\t${e.title}\n`);
        return 0;
      case 'tasks': {
        const env = await loadEnv(required(flags, 'env'));
        const imported = importTaskFile(env, flags);
        for (const t of imported.length > 0 ? imported : env.tasks()) process.stdout.write(`${t.id}\t${t.name}\t${env.maxSteps(t)} steps\n`);
        return 0;
      }
      case 'manual': {
        const env = await loadEnv(required(flags, 'env'));
        // A manual that differs per episode (MESSENGER) is the one of --seed (default 0).
        process.stdout.write(`${env.manual(getTask(env, required(flags, 'task')), integer(flags, 'seed', 0))}\n`);
        return 0;
      }
      case 'run':
        await run(flags);
        return 0;
      case 'eval':
        return await evalCommand(flags);
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (err) {
    process.stderr.write(`agentplay: ${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    return 2;
  }
}

// A closed pipe (`... | head`) is the reader saying it has seen enough, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

process.exitCode = await main(process.argv.slice(2));
