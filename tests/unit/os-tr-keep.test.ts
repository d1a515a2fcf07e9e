import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Bash } from 'just-bash';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';
import { asciiSet, trCommand } from '../../envs/os/embedded/trKeep.ts';
import { Rng } from '../../envs/core/rng.ts';

// The embedded shell's `tr -cd SET` walks bytes. The reference is GNU tr (Debian's coreutils, as in
// upstream's Ubuntu image; C locale, as its containers run), and the fast path must also agree with
// just-bash's own tr (a plain Bash, no overrides), which it stands in for. On random bytes (as
// /dev/urandom gives), UTF-8 text and cut-off sequences.
const SETS = ['[:alnum:]', 'a-zA-Z0-9', '[:alpha:][:digit:]', '[:lower:]', '[:upper:]', '[:xdigit:]', '[:space:]', '[:blank:]', '[:punct:]', 'a-z_-', '0-9.', 'A-Za-z0-9!@#$%^&*()_+-='];

function randomBytes(seed: number, n: number): Uint8Array {
  const rng = new Rng(seed);
  return Uint8Array.from({ length: n }, () => rng.below(256));
}

describe('tr -cd SET over bytes, as just-bash’s tr', () => {
  it('keeps the same characters as GNU tr and just-bash’s own tr on random bytes and on text', async () => {
    const inputs: Record<string, Uint8Array> = {
      random: randomBytes(7, 20_000),
      text: new TextEncoder().encode('Grüße, naïve café! 123 tabs\tand\nlines; ümlaut-ÄÖÜ €5 {x} [y] ~z\u0000\u007f'),
      truncated: Uint8Array.from([0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98, 0x42, 0xc3, 0x43, 0xff, 0x44]),
    };
    const plain = new Bash({ files: Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`/in/${k}`, v])) });
    const ours = await createEmbeddedShell({ seed: 1 });
    for (const [name, bytes] of Object.entries(inputs)) {
      // Our shell gets the same bytes through base64 (its files are set up by commands).
      const b64 = Buffer.from(bytes).toString('base64');
      await ours.exec(`echo '${b64}' | base64 -d > /tmp/${name}`);
      expect((await ours.exec(`wc -c < /tmp/${name}`)).output.trim()).toBe(String(bytes.length));
      for (const set of SETS) {
        const gnu = execFileSync('tr', ['-cd', set], { input: Buffer.from(bytes), env: { PATH: process.env.PATH, LC_ALL: 'C' } }).toString('latin1');
        const reference = await plain.exec(`tr -cd '${set}' < /in/${name}`);
        expect(reference.exitCode).toBe(0);
        expect(reference.stdout, `just-bash's tr against GNU's: ${name}, '${set}'`).toBe(gnu);
        for (const flags of ['-cd', '-dc', '-c -d', '--complement --delete', '-Cd']) {
          const got = await ours.exec(`tr ${flags} '${set}' < /tmp/${name}; echo "[$?]"`);
          expect(got.output, `${name}, tr ${flags} '${set}'`).toBe(`${reference.stdout}[0]\n`);
        }
      }
    }
  });

  it('leaves other sets to just-bash’s tr', () => {
    for (const set of ['[=a=]', '[a*3]', '\\n', 'é', '[:print:]', 'z-a', '[]']) expect(asciiSet(set), set).toBeNull();
    expect([...asciiSet('a-c_-')!].flatMap((v, i) => (v ? [String.fromCharCode(i)] : []))).toEqual(['-', '_', 'a', 'b', 'c']);
  });

  it('leaves input or output past tr’s limits to just-bash’s tr, which reports them', async () => {
    const limits = { maxInputBytes: 64 << 20, maxOutputSize: 1 << 20, maxStringLength: 8 << 20 };
    const asked: string[][] = [];
    const origCommand = async (args: string[]) => (asked.push(args), { stdout: '', stderr: 'tr: output size limit exceeded\n', exitCode: 1 });
    const run = (stdin: string) => trCommand().execute(['-cd', 'a-z'], { stdin, limits, origCommand } as never);
    expect(await run('ab1c\u00ff')).toEqual({ stdout: 'abc', stderr: '', exitCode: 0 });
    expect(asked).toEqual([]);
    expect((await run('a'.repeat((1 << 20) + 1))).exitCode).toBe(1);
    expect(asked).toEqual([['-cd', 'a-z']]);
  });
});
