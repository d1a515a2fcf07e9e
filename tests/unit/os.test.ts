/**
 * AgentBench OS interaction (envs/os/README.md, Upstream): protocol strings, action parsing, truncation,
 * checks, every dev task solved by its reference solution through the episode machine,
 * interactive shell state, execution limits, and the WebContainer adapter against a fake.
 */
import { describe, expect, it } from 'vitest';
import { createOsEnv, type OsState, type OsTask } from '../../envs/os/index.ts';
import { osMeta } from '../../envs/os/meta.ts';
import { INSTRUCTION, MANUAL, ONE_SHOT, openingTurns, osReply, parseAction, problemMessage, truncateOutput } from '../../envs/os/protocol.ts';
import { CALC_EXPRESSIONS, integerMatch, parseSize, runChecks, sizeMatch, stringMatch, containing, within } from '../../envs/os/checks.ts';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';
import { evaluate, floatRepr, pyStr, runProgram } from '../../envs/os/pyexpr.ts';
import { OS_TASKS } from '../../envs/os/tasks.ts';
import { WebContainerShell, bootOrFallback, bootWebContainer, type WebContainerLike } from '../../envs/os/webcontainer.ts';
import { playActions, startEpisode, whenIdle } from '../../envs/core/runner.ts';
import { testRandom } from './helpers.ts';

const frozen = () => 0;
const env = createOsEnv({ shellFactory: ({ seed }) => createEmbeddedShell({ seed, wallClock: frozen }) });

describe('os: protocol', () => {
  it('meta', () => {
    expect(osMeta).toMatchObject({ id: 'os', suites: [{ suite: 'agentbench', column: 'OS' }] });
    expect(env.maxSteps(OS_TASKS[0])).toBe(8);
    expect(env.limitKind).toBe('limit');
    expect(env.suites).toEqual([{ suite: 'agentbench', column: 'OS' }]);
    expect(env.conversation('agentbench', env.tasks()[0]).agentbench?.opening).toHaveLength(6);
  });

  it('instruction text, quirks included', () => {
    expect(INSTRUCTION.startsWith("You are an assistant that will act like a person, I'will play the role of linux(ubuntu) operating system. ")).toBe(true);
    expect(INSTRUCTION).toContain('take exact one of the three actions: "bash", "finish" or "answer". \n\n1. If you think');
    expect(INSTRUCTION).toContain('Think: put your thought here.\n\nAct: bash\n\n```bash\n# put your bash code here\n```\n\n2.');
    expect(INSTRUCTION).toContain('Act: answer(Your answer to the question should be put in this pair of parentheses)\n\nIf the output is too long');
    // Upstream's "\\n\\n" inside an ordinary (not raw) Python string: two newlines (AgentBench's own Session sends them so: conversation-agentbench.test.ts).
    expect(INSTRUCTION.endsWith('in each turn.\n\n')).toBe(true);
  });

  it('one-shot example and the problem message', () => {
    const turns = openingTurns('How many?');
    expect(turns).toHaveLength(7);
    expect(turns[0].content).toBe(`${INSTRUCTION}Now, my problem is:\n\ntell me how many files are in the directory "/etc"?`);
    expect(turns[2].content).toBe(
      'The output of the OS:\ncpi cron.hourly fuse.conf iproute2 lvm networkd-dispatcher protocols selinux tmpfiles.d [truncated because the output is too long]',
    );
    expect(turns[4]).toEqual({ role: 'user', content: 'The output of the OS:\n220' });
    expect(turns[5]).toEqual({ role: 'agent', content: 'Think: Now I get the answer, it is 220.\n\nAct: answer(220)' });
    expect(turns[6].content).toBe('Now, I will start a new problem in a new OS. My problem is:\n\nHow many?');
    expect(MANUAL).toBe([turns[0], ...ONE_SHOT.slice(1)].map((t) => t.content).join('\n\n'));
    expect(problemMessage('x')).toBe('Now, I will start a new problem in a new OS. My problem is:\n\nx');
  });

  it('replies and truncation', () => {
    expect(osReply('')).toBe('The output of the OS is empty.');
    expect(osReply('220\n')).toBe('The output of the OS:\n\n220\n');
    const long = 'x'.repeat(801);
    expect(truncateOutput('y'.repeat(800))).toBe('y'.repeat(800));
    expect(truncateOutput(long)).toBe(`${'x'.repeat(780)}\n[truncated because the output is too long]`);
    expect(osReply(long)).toBe(`The output of the OS:\n\n${'x'.repeat(780)}\n[truncated because the output is too long]`);
    // Python counts code points.
    expect(truncateOutput('😀'.repeat(800))).toBe('😀'.repeat(800));
  });
});

describe('os: parsing', () => {
  it('bash joins every fenced block', () => {
    expect(parseAction('Think: x\n\nAct: bash\n\n```bash\nls\n```\nand\n```bash\npwd\n```')).toEqual({ kind: 'bash', script: 'ls\n\npwd' });
    expect(parseAction('Act: bash')).toEqual({ kind: 'bash', script: '' });
    expect(parseAction('Act: BASH\n```bash\necho 1\n```')).toEqual({ kind: 'bash', script: 'echo 1' });
  });
  it('the last Act line wins; answer takes first ( to last )', () => {
    expect(parseAction('Act: bash\n```bash\nls\n```\nAct: answer(3)')).toEqual({ kind: 'answer', answer: '3' });
    expect(parseAction('Act: answer(f(x) = (1))')).toEqual({ kind: 'answer', answer: 'f(x) = (1)' });
    expect(parseAction('Act: answer( 7 )')).toEqual({ kind: 'answer', answer: ' 7 ' });
    expect(parseAction('Act: finish')).toEqual({ kind: 'finish' });
    // An answer without parentheses is skipped and the scan goes on backwards.
    expect(parseAction('Act: finish\nAct: answer 3')).toEqual({ kind: 'finish' });
    expect(parseAction('Act:\n\nanswer(5)')).toEqual({ kind: 'answer', answer: '5' });
  });
  it('unrecognised replies', () => {
    expect(parseAction('I think the answer is 3')).toBeNull();
    expect(parseAction('Act: answer 3')).toBeNull();
    expect(parseAction('Act: run ls')).toBeNull();
  });
  it('2,000 random strings never throw', () => {
    const rnd = testRandom(7);
    const pieces = ['Act:', ' bash', 'answer', '(', ')', '```bash\n', '\n```', 'finish', '\n', ' ', 'x', '😀', '\r', 'Think:'];
    for (let i = 0; i < 2000; i++) {
      let s = '';
      const n = Math.floor(rnd() * 20);
      for (let j = 0; j < n; j++) s += rnd() < 0.7 ? pieces[Math.floor(rnd() * pieces.length)] : String.fromCharCode(Math.floor(rnd() * 0x3000));
      expect(() => parseAction(s)).not.toThrow();
    }
  });
});

describe('os: checks', () => {
  it('integer-match is Python int()', () => {
    expect(integerMatch('6', '6\n')).toBe(true);
    expect(integerMatch(' +6 ', '6')).toBe(true);
    expect(integerMatch('1_000', '1000')).toBe(true);
    expect(integerMatch('6.0', '6')).toBe(false);
    expect(integerMatch('', '0')).toBe(false);
  });
  it('string-match, containing, in', () => {
    expect(stringMatch('a\r\nb ', 'a\nb\n')).toBe(true);
    expect(stringMatch('a', 'b')).toBe(false);
    expect(containing('the answer is 42', ' 42\n')).toBe(true);
    expect(within('42', 'the answer is 42')).toBe(true);
    expect(within('43', 'the answer is 42')).toBe(false);
  });
  it('size-match keeps upstream quirks', () => {
    expect(parseSize('4K')).toBe(4096n);
    expect(parseSize('4')).toBe(4n);
    expect(parseSize('8.0K')).toBeNull();
    expect(parseSize('12KB')).toBeNull(); // ends with "B" first
    expect(sizeMatch('4K', '4096B')).toBe(true);
    expect(sizeMatch('8.0K', '8.0K')).toBe(false);
  });
  it('python one-liners', () => {
    expect(pyStr(evaluate('"%.6f" % (20 / (5 + 2) - 1)'))).toBe('1.857143');
    expect(pyStr(evaluate('abs(1.857143 - 1.857143)<1e-5'))).toBe('True');
    expect(runProgram('print(6/3, 7//2, 2**10, -7 % 3)')).toBe('2.0 3 1024 2\n');
    expect(floatRepr(1e-5)).toBe('1e-05');
    expect(floatRepr(1e16)).toBe('1e+16');
    expect(floatRepr(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(CALC_EXPRESSIONS).toHaveLength(14);
  });
  it('a pipeline: null runs the example, its output is compared', async () => {
    const shell = await createEmbeddedShell({ wallClock: frozen });
    const entries = [{ kind: 'example' as const }, { kind: 'integer-match' as const }];
    expect((await runChecks(shell, entries, 'echo 3', '3')).success).toBe(true);
    expect((await runChecks(shell, entries, 'echo 3', '4')).success).toBe(false);
    expect((await runChecks(shell, entries, 'echo 3', null)).params[0]).toBe('None');
    expect((await runChecks(shell, entries, 'exit 1', '3')).success).toBe(false);
    // Arguments reach the example as $1.
    expect((await runChecks(shell, [{ kind: 'example' }, { kind: 'string-match' }], 'echo "$1"', 'hello')).success).toBe(true);
  });
});

async function playOracle(task: OsTask, seed = 1) {
  const actor = startEpisode(env, task, { seed });
  async function* oracle() {
    for (;;) {
      const snapshot = actor.getSnapshot();
      if (snapshot.status !== 'active') return;
      const action = env.oracleAction!(snapshot.context.state as OsState, task);
      if (action === null) return;
      yield action;
    }
  }
  await playActions(actor, oracle());
  return whenIdle(actor);
}

describe('os: the 26 dev tasks', () => {
  it('ids, names and marks', () => {
    expect(OS_TASKS).toHaveLength(26);
    expect(OS_TASKS.map((t) => t.id)).toEqual(Array.from({ length: 26 }, (_, i) => `os-dev-${String(i).padStart(2, '0')}`));
    expect(OS_TASKS[0].name).toBe('dev-001-dev-00000');
    for (const t of OS_TASKS) {
      expect(typeof t.runnable).toBe('boolean');
      expect(t.note.length).toBeGreaterThan(0);
    }
  });

  for (const task of OS_TASKS) {
    it(`${task.id} ${!task.runnable ? 'is marked not runnable' : task.unsolvable ? 'cannot be passed, as upstream' : 'is solved by its reference solution'}`, async () => {
      if (!task.runnable) {
        expect(task.note).toMatch(/\w/);
        return;
      }
      const snapshot = await playOracle(task);
      expect(snapshot.status).toBe('done');
      expect(snapshot.context.error).toBeNull();
      expect(snapshot.output?.finishReason).toBe('Complete');
      expect(snapshot.output?.success).toBe(!task.unsolvable);
      expect(snapshot.context.initialObservation).toBe(problemMessage(task.description));
    }, 30_000);
  }

  it('wrong answers fail; finish on a question fails', async () => {
    const task = OS_TASKS[13];
    const actor = startEpisode(env, task, { seed: 1 });
    await playActions(actor, ['Think: guess\n\nAct: answer(999)']);
    expect((await whenIdle(actor)).output).toMatchObject({ success: false, finishReason: 'Complete' });
    const again = startEpisode(env, OS_TASKS[0], { seed: 1 });
    await playActions(again, ['Act: finish']);
    expect((await whenIdle(again)).output?.success).toBe(false);
  });

  it('an unparseable reply ends the episode as Invalid Action', async () => {
    const actor = startEpisode(env, OS_TASKS[6], { seed: 1 });
    await playActions(actor, ['I would list the files.']);
    const snapshot = await whenIdle(actor);
    expect(snapshot.output).toMatchObject({ finishReason: 'Invalid Action', success: false, steps: 1 });
  });

  it('8 rounds of bash end in Task Limit Exceeded', async () => {
    const actor = startEpisode(env, OS_TASKS[6], { seed: 1 });
    await playActions(actor, Array.from({ length: 10 }, () => 'Act: bash\n```bash\nls /home\n```'));
    const snapshot = await whenIdle(actor);
    expect(snapshot.output).toMatchObject({ finishReason: 'Task Limit Exceeded', success: false, steps: 8 });
    expect(snapshot.context.history[0].observation).toBe('The output of the OS is empty.');
  });
});

describe('os: the embedded shell', () => {
  it('starts as root in / on an Ubuntu-like host', async () => {
    const sh = await createEmbeddedShell({ wallClock: frozen });
    expect((await sh.exec('pwd; whoami; echo $HOME')).output).toBe('/\nroot\n/root\n');
    expect((await sh.exec('id')).output).toBe('uid=0(root) gid=0(root) groups=0(root)\n');
    expect((await sh.exec('getent passwd | wc -l; getent group sudo; nproc')).output).toBe('19\nsudo:x:27:\n4\n');
    expect((await sh.exec('[ -x "" ] && echo yes || echo no')).output).toBe('no\n');
  });

  it('keeps cwd, variables, arrays, functions and aliases between commands', async () => {
    const sh = await createEmbeddedShell({ wallClock: frozen });
    await sh.exec('mkdir -p /tmp/w && cd /tmp/w; x=1; export Y=2; arr=(a "b c"); greet() { echo "hi $1"; }; alias ll="echo aliased"');
    expect((await sh.exec('pwd; echo $x $Y ${arr[1]}; greet you; ll; printenv Y')).output).toBe('/tmp/w\n1 2 b c\nhi you\naliased\n2\n');
    await sh.exec('unset -f greet; unset x; cd /');
    expect((await sh.exec('pwd; echo "[$x]"; greet 2>&1 | head -1')).output).toBe('/\n[]\nbash: greet: command not found\n');
    // run() is independent of the session.
    expect((await sh.run('echo "$Y|$1"', ['arg'])).output).toBe('|arg\n');
  });

  it('background writers run on the simulated clock', async () => {
    const sh = await createEmbeddedShell({ wallClock: frozen });
    await sh.exec(`python3 -c 'import time\nwhile True:\n\twith open("/root/log", "a+") as f:\n\t\tf.write("succeed")\n\ttime.sleep(2)' &`);
    expect((await sh.exec('cat /root/log')).output).toBe('succeed');
    // Each command takes one virtual second: written at t=1, 3 (this command), 5 and 7 (the sleep).
    expect((await sh.exec('sleep 4; cat /root/log | wc -c')).output).toBe('28\n');
    const ps = (await sh.exec('ps aux | grep -c "time.sleep(2)"')).output;
    expect(Number(ps)).toBeGreaterThan(0);
    const before = (await sh.exec('pkill -f python3; wc -c < /root/log')).output;
    expect((await sh.exec('sleep 10; cat /root/log | wc -c')).output).toBe(before);
  });

  it('users and groups', async () => {
    const sh = await createEmbeddedShell({ wallClock: frozen });
    await sh.run('useradd -m -s /bin/bash -G root,sudo user1');
    expect((await sh.exec('groups user1; id -u user1; ls -a /home/user1 | wc -l')).output).toBe('user1 : user1 root sudo\n1000\n5\n');
    await sh.exec('groupadd devs && usermod -aG devs user1');
    expect((await sh.exec('id -Gn user1')).output).toBe('user1 root sudo devs\n');
  });

  it('python3 -c one-liners and an honest refusal', async () => {
    const sh = await createEmbeddedShell({ wallClock: frozen });
    expect((await sh.exec('python3 -c "print(3 + (6.7 * 9) - 5.5)"')).output).toBe('57.800000000000004\n'); // as Python prints it
    const refused = await sh.exec('python3 -c "import os; os.listdir(\'/\')"');
    expect(refused.exitCode).not.toBe(0);
    expect(refused.output).toMatch(/simulated shell/);
  });

  it('runaway commands stop within 2 s with a clear message', async () => {
    const sh = await createEmbeddedShell({ wallClock: frozen });
    for (const cmd of ['while true; do :; done', 'while true; do echo yyyyyyyyyyyyyyyyyy; done', ':(){ :|:& };:', 'x=a; while true; do x=$x$x; done', 'seq 1 100000000 | tail -1']) {
      const started = performance.now();
      const result = await sh.exec(cmd);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(result.exitCode).not.toBe(0);
      expect(result.output).toMatch(/stopped|exceeded|limit/i);
    }
    // The session still works afterwards.
    expect((await sh.exec('echo alive')).output).toBe('alive\n');
  }, 20_000);

  it('sees only its in-memory filesystem, no network', async () => {
    const sh = await createEmbeddedShell({ wallClock: frozen });
    expect((await sh.exec('ls /work 2>&1; cat /etc/hostname')).output).toMatch(/No such file or directory[\s\S]*\n[0-9a-f]{12}\n$/);
    expect((await sh.exec('curl https://example.com')).exitCode).not.toBe(0);
  });
});

/** A fake WebContainer following the documented API: spawn('jsh', ['-c', script]) runs in an embedded shell. */
async function fakeContainer(): Promise<WebContainerLike & { torn: boolean }> {
  const inner = await createEmbeddedShell({ wallClock: frozen });
  const fake = {
    torn: false,
    async spawn(command: string, args: string[], options?: { env?: Record<string, string | number | boolean> }) {
      expect(command).toBe('jsh');
      expect(args[0]).toBe('-c');
      const exports = Object.entries(options?.env ?? {}).map(([k, v]) => `export ${k}='${String(v)}'\n`).join('');
      const result = await inner.run(exports + args[1]);
      return {
        output: new ReadableStream<string>({
          start(controller) {
            controller.enqueue(result.output);
            controller.close();
          },
        }),
        exit: Promise.resolve(result.exitCode),
        kill() {},
      };
    },
    fs: { readFile: async (path: string) => (await inner.readFile(path)) ?? Promise.reject(new Error('ENOENT')) },
    teardown() {
      fake.torn = true;
    },
  };
  return fake;
}

describe('os: WebContainer adapter', () => {
  it('boot() that never settles rejects with a clear message', async () => {
    const never = { WebContainer: { boot: () => new Promise<WebContainerLike>(() => {}) } };
    await expect(bootWebContainer(async () => never, 50)).rejects.toThrow(/did not boot within 0.05 s.*COOP\/COEP/);
    const { shell, notice } = await bootOrFallback({ loader: async () => never, timeoutMs: 50, seed: 0 });
    expect(shell.kind).toBe('embedded');
    expect(notice).toMatch(/embedded shell/);
    shell.dispose();
  });

  it('runs commands, carries cwd and exported variables, reports exit codes', async () => {
    const container = await fakeContainer();
    const shell = new WebContainerShell(container, 1500, '/');
    expect(await shell.exec('mkdir -p /tmp/q && cd /tmp/q && export Z=9; echo made')).toEqual({ output: 'made\n', exitCode: 0, timedOut: false });
    expect((await shell.exec('pwd; echo $Z')).output).toBe('/tmp/q\n9\n');
    expect((await shell.exec('false')).exitCode).toBe(1);
    expect((await shell.run('echo "$1"', ['a b'])).output).toBe('a b\n');
    expect(await shell.readFile('/etc/hostname')).toMatch(/\n$/);
    shell.dispose();
    expect(container.torn).toBe(true);
  });

  it('a process that never exits is killed at the time limit', async () => {
    let killed = false;
    const hanging: WebContainerLike = {
      spawn: async () => ({ output: new ReadableStream<string>(), exit: new Promise<number>(() => {}), kill: () => void (killed = true) }),
      fs: { readFile: async () => '' },
      teardown() {},
    };
    const result = await new WebContainerShell(hanging, 100).exec('sleep 100');
    expect(result.timedOut).toBe(true);
    expect(result.output).toMatch(/stopped/);
    expect(killed).toBe(true);
  });
});
