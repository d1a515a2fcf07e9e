import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAI } from '../support/fake-openai-server.ts';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HANOI_ACTIONS, hanoiSolution } from '../../envs/hanoi/index.ts';
import { taskIdPrefix } from '../../runtime/taskFiles.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function cli(args: string[], input = ''): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { cwd: root, input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('cli', () => {
  it('lists tasks and prints the manual', () => {
    const tasks = cli(['tasks', '--env', 'hanoi']);
    expect(tasks.code).toBe(0);
    expect(tasks.out).toBe('hanoi-3\tHanoi3Disk-v0\t30 steps\nhanoi-4\tHanoi4Disk-v0\t30 steps\n');
    const manual = cli(['manual', '--env', 'bandits', '--task', 'bandits-highlow']);
    expect(manual.out).toBe(
      'You are in the casino with 2 slot machines in front of you. Your goal is to try to earn the most from those slot machines.\n\nList of all actions:\n1. Pull slot machine 1.\n2. Pull slot machine 2.\n',
    );
  });

  it("alfworld: tasks name their game file; raw input plays the game's commands; lines carry the game's text and, with --valid-actions, its commands", () => {
    const tasks = cli(['tasks', '--env', 'alfworld']).out.trim().split('\n');
    expect(tasks).toHaveLength(50 + 20 + 134);
    expect(tasks[0]).toBe('alfworld-std-00\tvalid_unseen/pick_and_place_simple-Pencil-None-Shelf-308/trial_T20190908_121952_610012/game.tw-pddl\t35 steps');
    const r = cli(['run', '--env', 'alfworld', '--task', 'alfworld-std-00', '--input', 'raw', '--reset-line', '--valid-actions'], 'go to desk 1\nGo to desk 2\n');
    const [reset, first, second] = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(reset.text).toMatch(/^-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room\. .*\n\nYour task is to: put a pencil in shelf\.$/);
    expect(reset.validActions.slice(0, 3)).toEqual(['go to bed 1', 'go to desk 1', 'go to desk 2']);
    expect(first.action).toBe('ACTION: go to desk 1');
    expect(first.text).toMatch(/^You arrive at loc \d+\. On the desk 1, you see /);
    expect(first.observation.startsWith(first.text.replace(/^You arrive at loc \d+\. /, ''))).toBe(true);
    expect(first.validActions).toContain('examine desk 1');
    // AgentBench lowercases the action: "Go to desk 2" plays.
    expect(second.text).toMatch(/On the desk 2/);
  });

  it('crafter: raw SmartPlay action names matched as SmartPlay matches replies, the reset line, upstream\'s achievements and inventory in each step\'s info', () => {
    const r = cli(['run', '--env', 'crafter', '--task', 'crafter', '--seed', '244', '--input', 'raw', '--reset-line'], 'Move East\nmove east now\ndo it\nI cannot tell\n');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ t: 0, score: 0 });
    expect(lines[0].observation).toMatch(/^You see:\n/);
    expect(lines.slice(1, 5).map((l) => l.info.action)).toEqual([2, 2, 5, 0]);
    expect(lines[3].observation).toMatch(/^You took action do\.\n\n/);
    expect(lines[4].observation).toMatch(/^You took action noop\.\n\n/);
    expect(Object.keys(lines[3].info.achievements)).toHaveLength(22);
    expect(lines[3].info).toMatchObject({ achievements: { collect_wood: 1 }, inventory: { wood: 1, health: 9 }, unlocked: ['collect_wood'] });
    expect(lines[3]).toMatchObject({ reward: 1, score: 1 });
    expect(lines[4]).toMatchObject({ score: 2, valid: false });
  });

  it('runs an episode from stdin: one JSON line per step, then the outcome', () => {
    const actions = hanoiSolution(3).map((i) => HANOI_ACTIONS[i]);
    const r = cli(['run', '--env', 'hanoi', '--task', 'hanoi-3', '--seed', '1'], `${actions.join('\n')}\nignored after the end\n`);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(8);
    expect(lines[0]).toEqual({
      t: 1,
      action: actions[0],
      observation: 'You tried to move the top disk of rod a to the top of rod c. Current configuration:\n- A: |bottom, [2, 1], top|\n- B: |bottom, [], top|\n- C: |bottom, [0], top|',
      reward: 0,
      valid: true,
      terminated: false,
      truncated: false,
      score: 1,
      info: { action: 1, matched: true, invalidAction: false },
    });
    expect(lines[6]).toMatchObject({ t: 7, reward: 100, terminated: true, score: 3 });
    expect(lines[7]).toEqual({ score: 3, success: true, steps: 7, finishReason: 'Complete' });
  });

  it('ends a run whose input stops early as Given Up', () => {
    const r = cli(['run', '--env', 'rps', '--task', 'rps-basic', '--seed', '3'], 'Rock\n');
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ steps: 1, success: null, finishReason: 'Given Up' });
  });

  it('gives a clear message and exit code 2 for bad arguments', () => {
    const unknown = cli(['tasks', '--env', 'chess']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/Unknown environment "chess"\. Known: hanoi, bandits, rps, /);
    const badSeed = cli(['run', '--env', 'hanoi', '--task', 'hanoi-3', '--seed', 'abc']);
    expect(badSeed.code).toBe(2);
    expect(badSeed.err).toContain('--seed takes a whole number.');
    const badTask = cli(['manual', '--env', 'hanoi', '--task', 'hanoi-9']);
    expect(badTask.err).toContain('Unknown task "hanoi-9" for hanoi. Known: hanoi-3, hanoi-4.');
  });
});

describe('cli --agent', () => {
  it('oracle solves Hanoi4Disk in 15 steps without stdin', () => {
    const r = cli(['run', '--env', 'hanoi', '--task', 'hanoi-4', '--agent', 'oracle']);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(16);
    expect(lines[15]).toEqual({ score: 4, success: true, steps: 15, finishReason: 'Complete' });
  });

  it('random plays the full 50-step horizon, the same for the same seed', () => {
    const a = cli(['run', '--env', 'bandits', '--task', 'bandits-highlow', '--seed', '8', '--agent', 'random']);
    const b = cli(['run', '--env', 'bandits', '--task', 'bandits-highlow', '--seed', '8', '--agent', 'random']);
    expect(a.out).toBe(b.out);
    const lines = a.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(51);
    expect(lines[50]).toMatchObject({ steps: 50, finishReason: 'Complete' });
    expect(cli(['run', '--env', 'hanoi', '--task', 'hanoi-3', '--agent', 'genius']).err).toContain('--agent is random, oracle or openai.');
  });
});

/** The CLI as a child process that can talk to a server in this process (spawnSync would block it). */
function cliAsync(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { cwd: root, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.stdin.end();
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('cli --agent openai, --episodes, --out', () => {
  it('a model behind a local OpenAI-compatible server solves Hanoi3Disk; the trajectory file holds prompts and replies but not the key', async () => {
    const { url, server } = await startFakeOpenAI();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'agentplay-cli-'));
      const file = join(dir, 'run.jsonl');
      const KEY = 'sk-cli-SECRET-42';
      const r = await cliAsync(['run', '--env', 'hanoi', '--task', 'hanoi-3', '--agent', 'openai', '--base-url', url, '--model', 'hanoi-solver', '--out', file], { OPENAI_API_KEY: KEY });
      expect(r.err).toBe('');
      const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.at(-1)).toEqual({ score: 3, success: true, steps: 7, finishReason: 'Complete' });
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(KEY);
      expect(r.out).not.toContain(KEY);
      const episode = JSON.parse(text.trim());
      expect(episode.header.driver).toMatchObject({ kind: 'model', name: 'hanoi-solver', engine: 'openai', protocol: 'smartplay' });
      expect(episode.steps).toHaveLength(7);
      expect(episode.steps[0].model.calls).toHaveLength(2);
      expect(episode.steps[0].actor).toEqual({ kind: 'model', name: 'hanoi-solver' });
      expect(episode.header.actors).toEqual([{ kind: 'model', name: 'hanoi-solver' }]);
    } finally {
      server.close();
    }
  });

  it('a failing endpoint exits non-zero with the error, and what was played is still written', async () => {
    const { url, server } = await startFakeOpenAI();
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'agentplay-cli-')), 'run.jsonl');
      const r = await cliAsync(['run', '--env', 'hanoi', '--task', 'hanoi-3', '--agent', 'openai', '--base-url', url, '--model', 'server-error', '--out', file]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/agentplay: .*500/);
      const episode = JSON.parse(readFileSync(file, 'utf8').trim());
      expect(episode.header.outcome.finishReason).toBe('Given Up');
    } finally {
      server.close();
    }
  }, 60_000);

  it('--episodes 20 with the random driver on Bandits prints 20 outcomes and a summary', () => {
    const r = cli(['run', '--env', 'bandits', '--task', 'bandits-highlow', '--agent', 'random', '--episodes', '20', '--seed', '100']);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(21);
    expect(lines[0]).toMatchObject({ episode: 1, seed: 100, steps: 50, finishReason: 'Complete' });
    const summary = lines[20];
    expect(summary.episodes).toBe(20);
    const mean = lines.slice(0, 20).reduce((a: number, l: { score: number }) => a + l.score, 0) / 20;
    expect(summary.meanScore).toBeCloseTo(mean);
    expect(summary.meanScore).toBeGreaterThan(15);
    expect(summary.meanScore).toBeLessThan(35);
  });
});

// AgentBench runs start their engine (sql.js, the shell) in a worker thread: longer limits on a loaded machine.
describe('cli: AgentBench replies as JSON Lines', () => {
  it('os reads one JSON string per line (replies span lines) and solves a task', () => {
    const replies = ['Act: bash\n\n```bash\nchmod 777 /home/jack/test && /home/jack/test\n```', 'Act: answer(Awesome-AgentBench)'];
    const r = cli(['run', '--env', 'os', '--task', 'os-dev-24'], replies.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].observation).toBe('The output of the OS:\n\nAwesome-AgentBench\n');
    expect(lines.at(-1)).toEqual({ score: 1, success: true, steps: 2, finishReason: 'Complete' });
  }, 60_000);

  it('--shell picks one of the environment\'s backends and records it; other choices are refused with exit 2', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'agentplay-cli-shell-')), 'os.jsonl');
    const r = cli(['run', '--env', 'os', '--task', 'os-dev-00', '--agent', 'oracle', '--shell', 'embedded', '--out', out]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8').trim().split('\n').at(-1)!).header.shell).toBe('embedded');
    const browserOnly = cli(['run', '--env', 'os', '--task', 'os-dev-00', '--agent', 'oracle', '--shell', 'webcontainer']);
    expect(browserOnly.code).toBe(2);
    expect(browserOnly.err).toContain('--shell webcontainer: webcontainer runs in the browser only');
    const unknown = cli(['run', '--env', 'os', '--task', 'os-dev-00', '--agent', 'oracle', '--shell', 'zsh']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--shell takes embedded, webcontainer, linux, not "zsh".');
    const noChoice = cli(['run', '--env', 'hanoi', '--task', 'hanoi-3', '--agent', 'oracle', '--shell', 'embedded']);
    expect(noChoice.code).toBe(2);
    expect(noChoice.err).toContain('--shell applies to an environment with a choice of backends: hanoi has one.');
  }, 60_000);

  it('a line that is not a JSON string stops with a message naming it, after reporting what was played', () => {
    const r = cli(['run', '--env', 'db', '--task', 'db-dev-003'], `${JSON.stringify('Action: Operation\n```sql\nSELECT 1\n```')}\n42\n`);
    expect(r.code).toBe(2);
    expect(r.err).toContain('stdin line 2: expected a JSON string (the reply), got number.');
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ t: 1, observation: '[(1,)]' });
    expect(lines.at(-1)).toMatchObject({ steps: 1, finishReason: 'Given Up' });
  }, 60_000);
});

describe('cli --task-file (bring your own tasks)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentplay-tasks-'));

  it('db: lines in the upstream dev.jsonl format play like the built-in tasks', () => {
    const rows = (JSON.parse(readFileSync(join(root, 'envs/db/data/dbbench-dev.json'), 'utf8')) as unknown[]).slice(3, 5).map((r) => JSON.stringify(r));
    const file = join(dir, 'db.jsonl');
    writeFileSync(file, rows.join('\n') + '\n');
    // Ids per file, as the app gives the same file: db-<name>-<hash of its text>-NNN.
    const prefix = taskIdPrefix('db', 'db.jsonl', rows.join('\n') + '\n');
    expect(cli(['tasks', '--env', 'db', '--task-file', file]).out).toBe(`${prefix}-000\ttask file line 1 (other)\t16 steps\n${prefix}-001\ttask file line 2 (counting)\t16 steps\n`);
    const r = cli(['run', '--env', 'db', '--task-file', file, '--task', `${prefix}-001`, '--agent', 'oracle']);
    expect(r.out.trim().split('\n').at(-1)).toBe('{"score":1,"success":true,"steps":2,"finishReason":"Complete"}');
  }, 60_000);

  it('os: a dev.json list plays like the built-in tasks; a bad file names the entry', () => {
    const tasks = JSON.parse(readFileSync(join(root, 'envs/os/data/dev.json'), 'utf8')).slice(20, 22);
    const file = join(dir, 'os.json');
    writeFileSync(file, JSON.stringify(tasks));
    const r = cli(['run', '--env', 'os', '--task-file', file, '--agent', 'oracle']);
    expect(JSON.parse(r.out.trim().split('\n').at(-1)!)).toMatchObject({ success: true, finishReason: 'Complete' });
    writeFileSync(file, JSON.stringify([{ description: 'x', evaluation: {} }]));
    const bad = cli(['run', '--env', 'os', '--task-file', file, '--agent', 'oracle']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/os\.json: task 0/);
  }, 60_000);
});
