// The Linux backend's serial protocol (envs/os/linux/console.ts) against a scripted guest that
// answers as the image's bash does, and its script wrapper run by this machine's real bash.
// The real guest is exercised by `npm run test:linux` (it needs the built image).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SerialConsole, TYPED_LINE_MAX, bashString, fromTerminal } from '../../envs/os/linux/console.ts';
import { scriptCommand } from '../../envs/os/linux/shell.ts';

const RS = '\x1e';

/** A guest bash on a tty: echoes the line, runs it (here: a lookup), prints the prompt mark. */
function fakeGuest(behaviour: (source: string) => { output?: string; status?: number; hang?: 'interruptible' | 'dead' }) {
  const sent: string[] = [];
  let running: 'interruptible' | 'dead' | null = null;
  const console_ = new SerialConsole((text) => {
    sent.push(text);
    queueMicrotask(() => guestReads(text));
  });
  const emit = (text: string) => {
    for (const b of new TextEncoder().encode(text)) console_.feed(b);
  };
  function guestReads(text: string) {
    if (text.includes('\x03')) {
      if (running === 'interruptible') {
        running = null;
        emit(`^C\r\n${RS}P130${RS}root@localhost:/# `);
      }
      return;
    }
    if (running) return;
    const m = /^ printf '\\036S(\w+)\\036'; eval -- (\$'(?:[^'\\]|\\.)*')\n$/.exec(text);
    emit(text.replace(/\n/g, '\r\n')); // the tty echoes (the protocol must ignore it)
    if (!m) {
      emit(`${RS}P0${RS}root@localhost:/# `);
      return;
    }
    const source = bashWord(m[2]);
    const r = behaviour(source);
    emit(`${RS}S${m[1]}${RS}`);
    if (r.hang) {
      running = r.hang;
      if (r.output) emit(r.output);
      return;
    }
    emit((r.output ?? '').replace(/\n/g, '\r\n'));
    emit(`${RS}P${r.status ?? 0}${RS}root@localhost:/# `);
  }
  return { console: console_, sent };
}

/** What this machine's bash makes of one word. */
const bashWord = (word: string) => spawnSync('bash', ['-c', `printf %s ${word}`], { encoding: 'utf8' }).stdout;

describe('Linux serial console protocol', () => {
  it('records the output without escape sequences; a terminal view gets them, without the echo or the prompt', async () => {
    const { console: c } = fakeGuest(() => ({ output: '\x1b[01;34mdir\x1b[0m  plain\n' }));
    expect(await c.ready(1000)).toBe(true);
    c.onText = () => {};
    c.takeText();
    const r = await c.run('ls --color', { timeoutMs: 1000 });
    expect(r.output).toBe('dir  plain\n');
    expect(c.takeText()).toBe('\x1b[01;34mdir\x1b[0m  plain\r\n');
  });

  it('captures exactly the output between its start mark and the next prompt, with the exit status', async () => {
    const { console: c } = fakeGuest((src) => (src === 'ls /nope' ? { output: "ls: cannot access '/nope': No such file or directory\n", status: 2 } : { output: `ran ${src}\n` }));
    expect(await c.ready(1000)).toBe(true);
    const r = await c.run('ls /nope', { timeoutMs: 1000 });
    expect(r).toEqual({ output: "ls: cannot access '/nope': No such file or directory\n", exitCode: 2, timedOut: false, hung: false });
    const multi = await c.run("echo 'a b'\necho \"$HOME\" | tr a-z A-Z", { timeoutMs: 1000 });
    expect(multi.output).toBe("ran echo 'a b'\necho \"$HOME\" | tr a-z A-Z\n");
  });

  it('keeps a record-separator byte that a program prints itself', async () => {
    const { console: c } = fakeGuest(() => ({ output: `a${RS}b\u00e9\n` }));
    const r = await c.run('printf x', { timeoutMs: 1000 });
    expect(r.output).toBe(`a${RS}b\u00e9\n`);
  });

  it('interrupts a runaway command with Ctrl+C and reports it timed out', async () => {
    const { console: c, sent } = fakeGuest(() => ({ hang: 'interruptible', output: 'partial\r\n' }));
    const started = Date.now();
    const r = await c.run('while true; do :; done', { timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(2200);
    expect(sent.some((s) => s.includes('\x03'))).toBe(true);
    expect(r).toMatchObject({ output: 'partial\n', exitCode: 130, timedOut: true, hung: false });
  });

  it('calls a guest that does not come back after Ctrl+C hung', async () => {
    const { console: c } = fakeGuest(() => ({ hang: 'dead' }));
    const r = await c.run('freeze', { timeoutMs: 100, interruptGraceMs: 100 });
    expect(r.timedOut).toBe(true);
    expect(r.hung).toBe(true);
  });

  it('turns the tty line ends back into the text printed', () => {
    expect(fromTerminal('a\r\nb\r\r\nc\r')).toBe('a\nb\nc\r');
  });
});

describe('Linux command line ($\'…\' words, no forks)', () => {
  const awkward = "a 'b' \\\"c\" $HOME !! \t\x01\x1b[0m é \\x41 \\\\\n\n";

  it('is printable ASCII on one line and means exactly the text to bash', () => {
    const word = bashString(awkward);
    expect(word).toMatch(/^\$'[\x20-\x7e]*'$/);
    expect(word).not.toContain('!');
    expect(bashWord(word)).toBe(awkward);
    expect(bashWord(bashString(''))).toBe('');
  });

  it('a long text goes in as lines the guest\'s tty takes (at most TYPED_LINE_MAX each) that bash joins into the one word', () => {
    // About 30,000 characters with quotes, backslashes, control bytes and UTF-8 throughout, so pieces end at every kind of boundary.
    const long = Array.from({ length: 3000 }, (_, i) => `${i}'\\\x01é\n`).join('');
    const word = bashString(long);
    const lines = word.split('\n');
    expect(lines.length).toBeGreaterThan(30);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(TYPED_LINE_MAX);
    expect(bashWord(word)).toBe(long);
  });

  it('runs as typed into an interactive bash (history expansion on), output and status exact', async () => {
    const sent: string[] = [];
    const c = new SerialConsole((text) => sent.push(text));
    void c.run('printf "%s|" "$(echo hi!)" -n; echo; false', { timeoutMs: 50 }).catch(() => {});
    void c.run('-n x', { timeoutMs: 50 }).catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
    const lines = sent.filter((s) => s.startsWith(' printf'));
    expect(lines).toHaveLength(2);
    const r = spawnSync('bash', ['--norc', '--noprofile', '-i'], { input: `set -H\n${lines.join('')}echo "status $?"\n`, encoding: 'utf8' });
    const marks = r.stdout.split('\x1e').filter((s) => s.startsWith('S')).length;
    expect(marks).toBe(2);
    expect(r.stdout.replace(/\x1eS\w+\x1e/g, '')).toBe('hi!|-n|\nstatus 127\n');
    expect(r.stderr).toContain('-n: command not found');
  });
});

describe('Linux script wrapper (bash -c SCRIPT -- ARGS from /)', () => {
  const run = (script: string, args: string[]) => spawnSync('bash', ['-c', scriptCommand(script, args)], { encoding: 'utf8', cwd: '/tmp' });

  it('passes arguments exactly, trailing newlines, quotes and empty ones included', () => {
    const r = run('printf "<%s>" "$#" "$@"; pwd', ['answer\n\n', "it's \"q\" $HOME", '', 'é']);
    expect(r.stdout).toBe(`<4><answer\n\n><it's "q" $HOME><><é>/\n`);
  });

  it('returns the script exit status and keeps stdin closed', () => {
    const r = run('read -r x; echo "[$x]"; exit 3', []);
    expect(r.stdout).toBe('[]\n');
    expect(r.status).toBe(3);
  });
});
