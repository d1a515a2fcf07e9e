import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';
import { OS_TEST_TASKS } from '../../envs/os/testset.ts';

// Array subscripts holding `${…}` or `$((…))`. just-bash 3.4.2 expanded them with a shortcut that
// knew only `${name}`, `$name` and `$(command)`: `${#a[@]}` came out empty and `$((…))` ran as a
// command, so `${names[$RANDOM % ${#names[@]}]}` was always element 0. Our patch
// (patches/just-bash+3.4.2.patch) gives them the full expansion, as bash does before it evaluates the
// subscript. The reference is GNU bash (Debian's; upstream's Ubuntu image runs bash 5 too).
const SETUP = 'a=(A B C D); n=5; k=1; f=1; declare -A m=([x1]=one ["a b"]=two [5%4]=three); p=x; x=k';
const CASES = [
  'echo ${a[5 % ${#a[@]}]}',
  'echo ${a[n%${#a[@]}]}',
  'echo ${a[${n} % 4]}',
  'echo ${a[$((n % 4))]}',
  'echo ${a[$(( ${#a[@]} - 1 ))]}',
  'echo ${a[$n % 4]} ${a[$k+1]} ${a[${#a[@]}-1]}',
  'echo ${a[$(echo 2)]} ${a[`echo 2`]}',
  'echo "${a[${k}]}" "${a[$((k+1))]}" "${a[ ${k} ]}"',
  'echo ${#a[${k}]} ${a[${k}]:-x} ${a[${#a[@]}]:-none}',
  'echo ${a[$f*2]} ${a[${f}*2]}',
  'echo ${a[${!x}]}',
  'a[${k}+1]=Z; a[$n % 4]=Y; echo ${a[@]}',
  'echo ${m[${p}1]} ${m["a b"]} "${m[a b]}" ${m[5%${#a[@]}]}',
  "echo ${m[$(echo x1)]} ${m[`echo x1`]} ${m['x1']}",
];

describe('array subscripts with expansions, as GNU bash', () => {
  it('gives the element bash gives', async () => {
    const shell = await createEmbeddedShell({ seed: 1 });
    for (const line of CASES) {
      const script = `${SETUP}; ${line}`;
      const gnu = execFileSync('bash', ['-c', script], { env: { PATH: process.env.PATH, LC_ALL: 'C' } }).toString();
      expect((await shell.run(script)).output, line).toBe(gnu);
    }
  });

  it('makes AgentBench’s stock log with both names and both actions (it was all “Alice | Purchase”)', async () => {
    const task = OS_TEST_TASKS.find((t) => t.id === 'os-test-1-stock-00')!;
    const shell = await createEmbeddedShell({ seed: 3 });
    // A generous deadline: this checks the log's lines, not the init's speed (on a loaded machine it ran past 1.5 s).
    for (const init of task.init) expect((await shell.run(init(3), [], { timeoutMs: 30_000 })).exitCode).toBe(0);
    const log = (await shell.readFile('/usr/stock.log'))!.trim().split('\n');
    expect(log).toHaveLength(401);
    const kinds = new Map<string, number>();
    for (const line of log) {
      const [name, action] = line.split(' | ');
      kinds.set(`${name} | ${action}`, (kinds.get(`${name} | ${action}`) ?? 0) + 1);
    }
    // Each of the four pairs is drawn with chance 1/4: 401 draws put each near 100.
    expect([...kinds.keys()].sort()).toEqual(['Alice | Purchase', 'Alice | Sell', 'Bob | Purchase', 'Bob | Sell']);
    for (const [kind, count] of kinds) expect(count, kind).toBeGreaterThan(60);
  });
});
