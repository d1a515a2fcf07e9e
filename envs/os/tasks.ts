/**
 * The 26 AgentBench OS dev tasks (data/dev.json) as the environment runs them: scripts
 * resolved (upstream's script files are not copied; the check scripts are TypeScript in
 * checks.ts and the two shell files the dev set names are our own scripts below), whether
 * each runs faithfully in the embedded shell, and the oracle's solution.
 */
import devData from './data/dev.json';
import type { TaskInfo } from '../core/types.ts';
import type { CheckKind } from './checks.ts';
import { loadTask, type Evaluation, type LoadedTask, type Script } from './loader.ts';

export type { Evaluation } from './loader.ts';

export interface OsTask extends TaskInfo {
  /** Position in its file. */
  index: number;
  /** Which set: AgentBench's dev or test set, or a task file imported by the user. */
  split: 'dev' | 'test' | 'custom';
  /** The upstream file it comes from (e.g. `data/4/N11.json`). */
  source: string;
  /** The problem as the model and the person see it (the catalogue shows it). */
  description: string;
  labels: string[];
  /** The image: 'default' (ubuntu + python3 …) or 'packages' (the same with npm). */
  image: string;
  /** Bash scripts run with `bash -c` before the episode (seeded ones take the episode seed). */
  init: Script[];
  /** Run in the interactive shell before the first turn. */
  start: string | null;
  evaluation: Evaluation;
  /** Whether the task runs faithfully in the embedded shell. */
  runnable: boolean;
  /** Why it runs as it does (simulation used, or what is missing). */
  note: string;
  /** What the oracle runs; its output (trimmed) is its answer unless `oracleAnswer` is set. */
  oracleScript: string;
  /** The oracle commits with `finish` instead of an answer (tasks that change the system). */
  oracleFinishes: boolean;
  /** Why no answer can pass, when upstream's own data makes the task unsolvable (shown before playing). */
  unsolvable?: string;
}

/** Our `example/0.sh` (tasks 3 and 5): install a `calc` command that evaluates with awk. */
export const CALC_EXAMPLE = `mkdir -p /usr/local/bin
cat > /usr/local/bin/calc <<'EOF'
#!/bin/bash
awk "BEGIN { printf \\"%.6f\\\\n\\", $* }"
EOF
chmod +x /usr/local/bin/calc`;

/**
 * Our `init/stock-log.sh` (task 25): 401 lines "NAME | ACTION | INDEX | COUNT" appended to
 * /usr/stock.log with NAME ∈ {Alice, Bob}, ACTION ∈ {Purchase, Sell}, INDEX 0–99, COUNT 0–999.
 * Upstream draws them with $RANDOM; here a generator seeded by the episode makes them reproducible.
 */
export function stockLogInit(seed: number): string {
  return `s=${(seed >>> 0) % 2147483648}
next() { s=$(( (s * 1103515245 + 12345) % 2147483648 )); r=$(( s / 65536 )); }
for i in $(seq 1 401); do
  next; if [ $(( r % 2 )) -eq 0 ]; then n=Alice; else n=Bob; fi
  next; if [ $(( r % 2 )) -eq 0 ]; then a=Purchase; else a=Sell; fi
  next; idx=$(( r % 100 ))
  next; cnt=$(( r % 1000 ))
  echo "$n | $a | $idx | $cnt" >> /usr/stock.log
done`;
}

/** The dev set's check files we have no copy of, run as TypeScript checks. */
export const NAMED_CHECKS: Record<string, CheckKind> = {
  'check/0.sh': 'calc',
};

/** The dev set's shell files we have no copy of: our own scripts with upstream's behaviour. */
export const SHELL_FILES: Record<string, Script> = {
  'example/0.sh': () => CALC_EXAMPLE,
  'init/stock-log.sh': stockLogInit,
};

/**
 * Measure the writer's period: wait for its first write (python starts in seconds in an emulated
 * machine), count the writes ("succeed", 7 bytes) in the next 6.5 s and round 6.5 / writes
 * (1 s: 6 or 7 writes, 2 s: 3, 3 s: 2, however the window falls).
 */
const MEASURE_INTERVAL = `for i in $(seq 100); do [ -s /root/log ] && break; sleep 0.2; done; a=$(cat /root/log | wc -c); sleep 6.5; b=$(cat /root/log | wc -c); writes=$(( (b - a) / 7 )); echo $(( (13 + writes) / (2 * writes) ))`;
/** Which file under /root grows: sizes before and after a pause. */
const FIND_WRITER = `sizes() { find /root -type f | sort | while read f; do wc -c "$f"; done; }
sizes | sort > /tmp/before; sleep 3; sizes | sort > /tmp/after
comm -13 /tmp/before /tmp/after | awk '{print $2}' | while read f; do basename "$f"; done`;

const NOTES: Record<number, { oracle?: string; finishes?: boolean; note: string; unsolvable?: string }> = {
  0: { oracle: MEASURE_INTERVAL, note: 'The python writer runs as a job on the simulated clock (sleep moves the clock).' },
  1: { oracle: FIND_WRITER, note: 'The python writer runs as a job on the simulated clock (sleep moves the clock).' },
  2: { oracle: FIND_WRITER, note: 'The python writer runs as a job on the simulated clock (sleep moves the clock).' },
  3: { finishes: true, note: 'example/0.sh is our own (awk); a model\'s calc may use shell tools or `python3 -c` arithmetic one-liners.' },
  4: { oracle: MEASURE_INTERVAL, note: 'The python writer runs as a job on the simulated clock (sleep moves the clock).' },
  5: { finishes: true, note: 'example/0.sh is our own (awk); a model\'s calc may use shell tools or `python3 -c` arithmetic one-liners.' },
  8: {
    note: 'du -sh prints "8.0K" here as on Ubuntu (4 KiB blocks).',
    unsolvable: 'Upstream quirk: the example prints "8.0K", which upstream\'s size-match cannot parse, so no answer passes this task (as in AgentBench).',
  },
  10: { note: 'Quirk kept: `create` is a check list, so the default image is used with no init.' },
  13: { note: 'nproc is simulated (4 CPUs).' },
  23: { note: '/proc/sys/kernel/threads-max is a seeded file.' },
  24: {
    oracle: 'chmod 777 /home/jack/test && /home/jack/test',
    note: 'useradd/chown are simulated; `su - jack` without -c does nothing in a non-interactive script, as upstream.',
  },
  25: { note: 'init/stock-log.sh is our own: same format, seeded by the episode seed instead of $RANDOM.' },
};

/**
 * The oracle: run the example, then answer with its output (check scripts that ignore the
 * answer pass either way); finish instead when the only check is the calc check; a match task
 * without an example answers the expected text.
 */
export function oracleOf(loaded: LoadedTask): { oracleScript: string; oracleFinishes: boolean } {
  const ev = loaded.evaluation;
  const oracleScript = loaded.example ?? 'true';
  const oracleFinishes = ev.kind === 'check' && ev.entries.every((e) => e.kind === 'calc');
  return { oracleScript, oracleFinishes };
}

/**
 * A list title from a task's description: its first line, trimmed, cut at a word before 90
 * characters (upstream names such as `dev-001-dev-00000` only say where the task sits). Some
 * test-set descriptions hold a written `\n` for a line break, and some open with a quote mark
 * they never close: neither belongs in a title.
 */
export function titleOf(description: string, max = 90): string {
  const line = description
    .trim()
    .split(/\n|\\n/)[0]
    .replace(/^["']/, '')
    .trim()
    .replace(/\s+/g, ' ');
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

function toTask(raw: unknown, index: number): OsTask {
  const loaded = loadTask(raw, { replacements: SHELL_FILES, namedChecks: NAMED_CHECKS });
  const extra = NOTES[index];
  const oracle = oracleOf(loaded);
  return {
    id: `os-dev-${String(index).padStart(2, '0')}`,
    name: `dev-001-dev-${String(index).padStart(5, '0')}`,
    tags: loaded.labels,
    index,
    split: 'dev',
    source: 'data/dev.json',
    description: loaded.description,
    title: titleOf(loaded.description),
    labels: loaded.labels,
    image: loaded.image,
    init: loaded.init,
    start: loaded.start,
    evaluation: loaded.evaluation,
    runnable: true,
    note: extra?.note ?? 'Runs as upstream.',
    oracleScript: extra?.oracle ?? oracle.oracleScript,
    oracleFinishes: extra?.finishes ?? oracle.oracleFinishes,
    ...(extra?.unsolvable ? { unsolvable: extra.unsolvable } : {}),
  };
}

export const OS_TASKS: readonly OsTask[] = (devData as unknown[]).map(toTask);
