/**
 * Everyday commands as agents type them (issue 28) in the embedded shell, compared with real
 * GNU tools. Every expected text below was recorded from GNU coreutils 9.1, bash 5.2.15 and
 * util-linux/bsdextrautils 2.38 (column) on Debian 12, run as root in /tmp/fx after SETUP.
 */
import { describe, expect, it } from 'vitest';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';

const SETUP = "rm -rf /tmp/fx; mkdir -p /tmp/fx && cd /tmp/fx && mkdir -p d/sub d/empty && printf 'b\\na\\nc\\n' > f1 && printf 'a 1\\nb 2\\nc 3\\n' > j1 && printf 'a x\\nb y\\nd z\\n' > j2 && printf 'a\\nb\\nd\\n' > c1 && printf 'a\\nc\\nd\\n' > c2 && touch d/x.txt d/sub/y.txt d/.hidden && echo hello > d/h.txt && echo hi > top.txt && chmod 644 f1";

/**
 * [command, GNU's output]: stdout and stderr as one stream in the order written, as upstream's terminal shows
 * them (the three entries that write to both were recorded again that way with `bash -c 'exec 2>&1; …'`).
 */
const GNU: [string, string][] = [
  ["ls", "c1\nc2\nd\nf1\nj1\nj2\ntop.txt\n"],
  ["ls -a d", ".\n..\n.hidden\nempty\nh.txt\nsub\nx.txt\n"],
  ["ls -A d", ".hidden\nempty\nh.txt\nsub\nx.txt\n"],
  ["ls -1 d", "empty\nh.txt\nsub\nx.txt\n"],
  ["ls -R d", "d:\nempty\nh.txt\nsub\nx.txt\n\nd/empty:\n\nd/sub:\ny.txt\n"],
  ["ls d d/sub", "d:\nempty\nh.txt\nsub\nx.txt\n\nd/sub:\ny.txt\n"],
  ["ls -d d", "d\n"],
  ["ls *.txt", "top.txt\n"],
  ["find d | sort", "d\nd/.hidden\nd/empty\nd/h.txt\nd/sub\nd/sub/y.txt\nd/x.txt\n"],
  ["find d -type f -name '*.txt' | sort", "d/h.txt\nd/sub/y.txt\nd/x.txt\n"],
  ["find d -maxdepth 1 -type d", "d\nd/empty\nd/sub\n"],
  ["find d -empty | sort", "d/.hidden\nd/empty\nd/sub/y.txt\nd/x.txt\n"],
  ["find . -name 'h.txt'", "./d/h.txt\n"],
  ["find d -type f | wc -l", "4\n"],
  ["printf 'a\\nb\\nc\\n' | xargs echo", "a b c\n"],
  ["printf 'a\\nb\\nc\\n' | xargs -n 1 echo", "a\nb\nc\n"],
  ["printf 'a\\nb\\n' | xargs -I{} echo x{}y", "xay\nxby\n"],
  ["echo a b c | xargs -n2", "a b\nc\n"],
  ["printf 'a b\\0c\\0' | xargs -0 -n1 echo", "a b\nc\n"],
  ["echo f1 | xargs cat", "b\na\nc\n"],
  ["seq 3", "1\n2\n3\n"],
  ["seq 2 5", "2\n3\n4\n5\n"],
  ["seq 1 2 10", "1\n3\n5\n7\n9\n"],
  ["seq -s, 5", "1,2,3,4,5\n"],
  ["seq -w 8 10", "08\n09\n10\n"],
  ["seq 5 -1 1", "5\n4\n3\n2\n1\n"],
  ["seq 0.5 0.5 2", "0.5\n1.0\n1.5\n2.0\n"],
  ["seq -f '%03g' 3", "001\n002\n003\n"],
  ["seq 5 | paste -sd+", "1+2+3+4+5\n"],
  ["yes | head -3", "y\ny\ny\n"],
  ["yes n | head -2", "n\nn\n"],
  ["yes a b | head -2", "a b\na b\n"],
  ["yes | head -c 7", "y\ny\ny\ny"],
  ["yes | sed 3q", "y\ny\ny\n"],
  ["yes y | head -n 1000 | wc -l", "1000\n"],
  ["timeout 5 echo hi", "hi\n"],
  ["timeout 1 sleep 3; echo $?", "124\n"],
  ["timeout 2 bash -c 'echo x; exit 3'; echo $?", "x\n3\n"],
  ["nl f1", "     1\tb\n     2\ta\n     3\tc\n"],
  ["printf 'a\\n\\nb\\n' | nl", "     1\ta\n       \n     2\tb\n"],
  ["printf 'a\\n\\nb\\n' | nl -ba", "     1\ta\n     2\t\n     3\tb\n"],
  ["nl -w1 -s' ' f1", "1 b\n2 a\n3 c\n"],
  ["tac f1", "c\na\nb\n"],
  ["echo hello | rev", "olleh\n"],
  ["printf 'ab\\ncd\\n' | rev", "ba\ndc\n"],
  ["comm c1 c2", "\t\ta\nb\n\tc\n\t\td\n"],
  ["comm -12 c1 c2", "a\nd\n"],
  ["comm -23 c1 c2", "b\n"],
  ["comm -3 c1 c2", "b\n\tc\n"],
  ["join j1 j2", "a 1 x\nb 2 y\n"],
  ["join -a1 j1 j2", "a 1 x\nb 2 y\nc 3\n"],
  ["join -v1 j1 j2", "c 3\n"],
  ["paste c1 c2", "a\ta\nb\tc\nd\td\n"],
  ["paste -d, c1 c2", "a,a\nb,c\nd,d\n"],
  ["paste -s f1", "b\ta\tc\n"],
  ["paste - - < f1", "b\ta\nc\t\n"],
  ["printf 'a bb\\nccc d\\n' | column -t", "a    bb\nccc  d\n"],
  ["printf 'a,bb\\nccc,d\\n' | column -t -s,", "a    bb\nccc  d\n"],
  ["printf 'name age\\nalice 30\\nbob 4\\n' | column -t", "name   age\nalice  30\nbob    4\n"],
  ["printf 'a\\nb\\nc\\n' | column", "a\tb\tc\n"],
  ["echo 'a   b  c' | tr -s ' '", "a b c\n"],
  ["echo 'a   b  c' | tr -s ' ' '\\n'", "a\nb\nc\n"],
  ["printf 'a\\n\\n\\nb\\n' | tr -s '\\n'", "a\nb\n"],
  ["echo 'aabbcc' | tr -s 'a-z'", "abc\n"],
  ["echo hello | tr a-z A-Z", "HELLO\n"],
  ["echo hello | cut -c1-3", "hel\n"],
  ["echo hello | cut -c2", "e\n"],
  ["echo hello | cut -c3-", "llo\n"],
  ["echo hello | cut -c-2", "he\n"],
  ["echo hello | cut -c1,3", "hl\n"],
  ["printf 'abc\\ndefg\\n' | cut -c2-3", "bc\nef\n"],
  ["echo 'a b c' | cut -d' ' -f2", "b\n"],
  ["printf '%q\\n' 'a b'", "a\\ b\n"],
  ["printf '%q\\n' \"it's\"", "it\\'s\n"],
  ["printf '%q\\n' 'a$b'", "a\\$b\n"],
  ["printf '%q\\n' ''", "''\n"],
  ["printf '%q\\n' $'a\\tb'", "$'a\\tb'\n"],
  ["printf '%q\\n' abc", "abc\n"],
  ["printf '%q %q\\n' 'x y' '*'", "x\\ y \\*\n"],
  ["printf '%q\\n' 'a\"b'", "a\\\"b\n"],
  ["stat -c '%s %n' f1", "6 f1\n"],
  ["stat -c %a f1", "644\n"],
  ["stat -c '%U %G' f1", "root root\n"],
  ["stat -c %F f1 d", "regular file\ndirectory\n"],
  ["stat -c '%A %h' d", "drwxr-xr-x 4\n"],
  ["stat -c %s d/h.txt", "6\n"],
  ["realpath f1", "/tmp/fx/f1\n"],
  ["realpath d/../f1", "/tmp/fx/f1\n"],
  ["realpath .", "/tmp/fx\n"],
  ["realpath -m /a/../b", "/b\n"],
  ["realpath --relative-to=d f1", "../f1\n"],
  ["realpath nonexist", "/tmp/fx/nonexist\n"],
  ["realpath d/sub/", "/tmp/fx/d/sub\n"],
  ["basename /a/b/c.txt", "c.txt\n"],
  ["basename /a/b/c.txt .txt", "c\n"],
  ["basename -s .txt a.txt b.txt", "a\nb\n"],
  ["basename -a x/y z/w", "y\nw\n"],
  ["basename /a/b/", "b\n"],
  ["basename /", "/\n"],
  ["dirname /a/b/c", "/a/b\n"],
  ["dirname a", ".\n"],
  ["dirname /a/b/", "/a\n"],
  ["dirname /", "/\n"],
  ["dirname a/b c/d", "a\nc\n"],
  ["d=$(mktemp -d); test -d \"$d\" && echo ok; echo \"$d\" | grep -c '^/tmp/tmp\\.[A-Za-z0-9]\\{10\\}$'", "ok\n1\n"],
  ["f=$(mktemp); test -f \"$f\" && echo ok; echo \"$f\" | grep -c '^/tmp/tmp\\.[A-Za-z0-9]\\{10\\}$'", "ok\n1\n"],
  ["d=$(mktemp -d -p /tmp foo.XXX); echo \"$d\" | grep -c '^/tmp/foo\\.[A-Za-z0-9]\\{3\\}$'", "1\n"],
  ["getent passwd root", "root:x:0:0:root:/root:/bin/bash\n"],
  ["getent group root", "root:x:0:\n"],
  ["getent passwd nosuch; echo $?", "2\n"],
  ["getent passwd 0", "root:x:0:0:root:/root:/bin/bash\n"],
  ["id -G", "0\n"],
  ["id -Gn", "root\n"],
  ["id -u", "0\n"],
  ["id -un", "root\n"],
  ["id -g", "0\n"],
  ["id", "uid=0(root) gid=0(root) groups=0(root)\n"],
  ["seq 30 | column", "1\t4\t7\t10\t13\t16\t19\t22\t25\t28\n2\t5\t8\t11\t14\t17\t20\t23\t26\t29\n3\t6\t9\t12\t15\t18\t21\t24\t27\t30\n"],
  ["seq 100 | column", "1\t11\t21\t31\t41\t51\t61\t71\t81\t91\n2\t12\t22\t32\t42\t52\t62\t72\t82\t92\n3\t13\t23\t33\t43\t53\t63\t73\t83\t93\n4\t14\t24\t34\t44\t54\t64\t74\t84\t94\n5\t15\t25\t35\t45\t55\t65\t75\t85\t95\n6\t16\t26\t36\t46\t56\t66\t76\t86\t96\n7\t17\t27\t37\t47\t57\t67\t77\t87\t97\n8\t18\t28\t38\t48\t58\t68\t78\t88\t98\n9\t19\t29\t39\t49\t59\t69\t79\t89\t99\n10\t20\t30\t40\t50\t60\t70\t80\t90\t100\n"],
  ["printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\nzeta\\neta\\ntheta\\niota\\nkappa\\nlambda\\nmu\\n' | column", "alpha\tgamma\tepsilon\teta\tiota\tlambda\nbeta\tdelta\tzeta\ttheta\tkappa\tmu\n"],
  ["printf 'averyveryverylongname_number_one\\nb\\nc\\n' | column", "averyveryverylongname_number_one\tc\nb\n"],
  ["printf 'x%.0s\\n' $(seq 7) | paste -sd, -", "x,x,x,x,x,x,x\n"],
  ["paste -d: c1 - < c2", "a:a\nb:c\nd:d\n"],
  ["seq -s' ' 3", "1 2 3\n"],
  ["seq -f 'n%g' 1 0.5 2", "n1\nn1.5\nn2\n"],
  ["ls nosuch; echo $?", "ls: cannot access 'nosuch': No such file or directory\n2\n"],
  ["ls d nosuch", "ls: cannot access 'nosuch': No such file or directory\nd:\nempty\nh.txt\nsub\nx.txt\n"],
  ["touch g1; yes | rm -i g1; ls g1", "rm: remove regular empty file 'g1'? ls: cannot access 'g1': No such file or directory\n"],
  ["touch g2; yes n | rm -i g2; ls g2", "rm: remove regular empty file 'g2'? g2\n"],
  ["yes --help", "Usage: yes [STRING]...\n  or:  yes OPTION\nRepeatedly output a line with all specified STRING(s), or 'y'.\n\n      --help        display this help and exit\n      --version     output version information and exit\n\nGNU coreutils online help: <https://www.gnu.org/software/coreutils/>\nReport any translation bugs to <https://translationproject.org/team/>\nFull documentation <https://www.gnu.org/software/coreutils/yes>\nor available locally via: info '(coreutils) yes invocation'\n"],
  ["timeout 5 echo ok; echo $?", "ok\n0\n"],
  ["timeout 0.5 yes > /dev/null; echo $?", "124\n"],
  ["nl -ba d/h.txt", "     1\thello\n"],
  ["printf 'x\\n\\ny\\n' | nl", "     1\tx\n       \n     2\ty\n"],
  ["printf 'abc\\nxy\\n' | rev", "cba\nyx\n"],
  ["join -v2 j1 j2", "d z\n"],
  ["echo 'a   b    c' | tr -s ' '", "a b c\n"],
  ["echo 'hello world' | tr -s 'lo' ", "helo world\n"],
  ["cut -c1 f1", "b\na\nc\n"],
  ["echo hello | cut -c2-4", "ell\n"],
  ["echo hello | cut -c1,3,5", "hlo\n"],
  ["printf '%q\\n' 'x$y'", "x\\$y\n"],
  ["printf '%q %q\\n' a 'b c'", "a b\\ c\n"],
  ["stat -c %s f1", "6\n"],
  ["stat -c '%n %s' f1 j1", "f1 6\nj1 12\n"],
  ["stat -c %F d", "directory\n"],
  ["stat -c %U:%G f1", "root:root\n"],
  ["sort f1 | uniq -c", "      1 a\n      1 b\n      1 c\n"],
  ["printf 'a\\na\\nb\\n' | uniq -c", "      2 a\n      1 b\n"],
  ["printf 'a\\na\\nb\\n' | uniq -c | sort -rn", "      2 a\n      1 b\n"],
  ["printf 'a\\na\\nb\\n' | uniq -d", "a\n"],
  ["printf 'a b c\\nxx yyy z\\n' | column -t", "a   b    c\nxx  yyy  z\n"],
  ["printf 'a:b\\nccc:d\\n' | column -t -s:", "a    b\nccc  d\n"],
  ["comm f1 c1 2>&1 >/dev/null; echo $?", "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n1\n"],
  ["comm --nocheck-order f1 c1; echo $?", "\ta\n\t\tb\na\nc\n\td\n0\n"],
  ["sort f1 | uniq -c | sort -rn | head -1", "      1 c\n"],
  ["printf \"%s\\n\" x x x x x x x x x x x x | uniq -c", "     12 x\n"],
];

describe('os shell: everyday commands print what GNU prints', () => {
  it('each recorded invocation', async () => {
    const sh = await createEmbeddedShell({ seed: 3, wallClock: () => 0, epochMs: Date.UTC(2024, 4, 15, 10, 30) });
    await sh.exec(SETUP);
    const differ: string[] = [];
    for (const [command, gnu] of GNU) {
      const got = (await sh.exec(`cd /tmp/fx; ${command}`)).output;
      if (got !== gnu) differ.push(`${command}\n  gnu: ${JSON.stringify(gnu)}\n  got: ${JSON.stringify(got)}`);
    }
    expect(differ.join('\n')).toBe('');
  }, 60_000);

  it('yes stops when its reader does, and is stopped as a runaway when nothing reads it', async () => {
    const sh = await createEmbeddedShell({ seed: 3, wallClock: () => 0 });
    const t0 = Date.now();
    expect((await sh.exec('yes | head -3; yes n | head -2')).output).toBe('y\ny\ny\nn\nn\n');
    expect(Date.now() - t0).toBeLessThan(1500);
    // bash's `yes` alone never ends (the runaway guard stops it there): here it passes the output limit and is stopped.
    const alone = await sh.exec('yes');
    expect(alone.timedOut).toBe(true);
    expect(alone.output).toMatch(/^\[The command was stopped: .*output size exceeded/);
    expect((await sh.exec('yes > /tmp/y')).timedOut).toBe(true);
    expect((await sh.exec('echo after')).output).toBe('after\n');
  }, 30_000);
});
