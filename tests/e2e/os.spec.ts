import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { storedSteps, waitForStoredSteps } from './helpers.ts';

test('OS: a person runs a command in the embedded shell, sees its output, and answers', async ({ page }) => {
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 8/);
  await expect(page.getByTestId('text-view')).toContainText('what is the output if i execute ~/test?');

  // As upstream, the init script's `su - jack` does not stick: the agent is root, and jack's script is in /home/jack.
  const box = page.getByLabel('Or type the exact text a model would send');
  await box.fill('Think: run it.\n\nAct: bash\n\n```bash\nchmod 777 /home/jack/test && /home/jack/test\n```');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  await page.getByRole('button', { name: 'Visual view' }).click();
  const terminal = page.getByTestId('terminal');
  await expect(terminal).toContainText('root@localhost:~# chmod 777 /home/jack/test && /home/jack/test');
  await expect(terminal).toContainText('The output of the OS:\n\nAwesome-AgentBench');

  await box.fill('Think: I know it.\n\nAct: answer(Awesome-AgentBench)');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  await waitForStoredSteps(page, 2);
  expect((await storedSteps(page)).sort((a, b) => a.t - b.t)[0].observation).toContain('Awesome-AgentBench');
});

test('OS: the stock tasks’ log has both people and both actions in the browser’s shell too (array subscripts expand as in bash)', async ({ page }) => {
  await page.goto('/#/play/os/os-test-1-stock-00?seed=3');
  await expect(page.getByTestId('text-view')).toContainText('/usr/stock.log');
  const box = page.getByLabel('Or type the exact text a model would send');
  await box.fill("Think: which kinds of lines?\n\nAct: bash\n\n```bash\ncut -d'|' -f1,2 /usr/stock.log | sort | uniq -c | wc -l; a=(A B C D); echo ${a[5 % ${#a[@]}]}\n```");
  await page.getByRole('button', { name: 'Send' }).click();
  // Four kinds (Alice/Bob × Purchase/Sell), and the element bash gives (B), not element 0.
  await expect(page.getByTestId('text-view')).toContainText('The output of the OS:\n\n4\nB');
});

test('OS: errors show where they were written among the output in the browser’s shell, as on upstream’s terminal (and a write where no directory is fails)', async ({ page }) => {
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 8/);
  await page.getByLabel('Or type the exact text a model would send').fill('Act: bash\n\n```bash\ncd /nowhere; echo one; for f in /etc/hostname /nope; do cat $f >/dev/null; echo "$f done"; done; echo x > /nowhere/f; echo "status $?"\n```');
  await page.getByRole('button', { name: 'Send' }).click();
  // As GNU bash writes them to one terminal (stdout then stderr was the order before the browser build learnt it).
  await expect(page.getByTestId('text-view')).toContainText(
    'The output of the OS:\n\nbash: cd: /nowhere: No such file or directory\none\n/etc/hostname done\ncat: /nope: No such file or directory\n/nope done\nbash: /nowhere/f: No such file or directory\nstatus 1',
  );
});

test('OS: random bytes pass through files and pipes whole in the browser’s shell (and sort -f folds as GNU), the same as in Node for the seed', async ({ page }) => {
  // The browser build of just-bash turns bytes into text its own way (Node's uses Buffer): patched to
  // convert in chunks instead of spreading 64 KiB into one call; two devices' worth crosses every chunk size.
  const action = 'Think: bytes.\n\nAct: bash\n\n```bash\ncat /dev/urandom /dev/urandom > /tmp/r; wc -c < /tmp/r; md5sum /tmp/r; cat /tmp/r | md5sum; tr -cd a-z < /tmp/r | md5sum; printf "_x\\na\\nB\\n" | sort -f | tr "\\n" " "\n```';
  await page.goto('/#/play/os/os-dev-24?seed=5');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 8/);
  await page.getByLabel('Or type the exact text a model would send').fill(action);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  await waitForStoredSteps(page, 1);
  const inBrowser = (await storedSteps(page))[0].observation;
  expect(inBrowser).toMatch(/131072\n([0-9a-f]{32})  \/tmp\/r\n\1  -\n[0-9a-f]{32}  -\na B _x $/); // sort -f as GNU's: folded to upper

  const inNode = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/os-step.ts', 'os-dev-24', '5'], { input: action, encoding: 'utf8' });
  expect(inNode.status, inNode.stderr).toBe(0);
  expect(inBrowser).toBe(JSON.parse(inNode.stdout));
});

test('OS: a runaway command is stopped with a clear message and the page stays usable', async ({ page }) => {
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  const box = page.getByLabel('Or type the exact text a model would send');
  await box.fill('Act: bash\n\n```bash\nwhile true; do :; done\n```');
  const started = Date.now();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//, { timeout: 10_000 });
  expect(Date.now() - started).toBeLessThan(8_000);
  await page.getByRole('button', { name: 'Visual view' }).click();
  await expect(page.getByTestId('terminal')).toContainText('[The command was stopped: too many commands executed');
  await box.fill('Act: bash\n\n```bash\necho still here\n```');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('terminal')).toContainText('still here');
});

test('OS: a person types commands in the terminal (xterm), each one a recorded step in the Act: bash form, then answers in the Answer box', async ({ page }) => {
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 8/);
  await page.getByRole('button', { name: 'Visual view' }).click();
  await page.getByTestId('xterm').click();
  // xterm.js loads on first use: keys typed before it has focus would go elsewhere.
  await expect(page.getByTestId('xterm').locator('textarea')).toBeFocused();
  await page.keyboard.type('cat /home/jack/test\n');
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  await expect(page.getByTestId('terminal')).toContainText('echo Awesome-AgentBench');
  // The terminal shows the history once, however often it was redrawn.
  await page.keyboard.type('echo again\n');
  await expect(page.getByTestId('step-count')).toHaveText(/^2 \//);
  await expect(page.getByTestId('xterm').locator('.xterm-rows')).toContainText('again');
  const screen = (await page.getByTestId('xterm').locator('.xterm-rows').textContent()) ?? '';
  expect(screen.split('My problem is:').length - 1).toBe(1);
  expect(screen.split('# cat /home/jack/test').length - 1).toBe(1);
  await page.getByLabel('Answer', { exact: true }).fill('Awesome-AgentBench');
  await page.getByRole('button', { name: 'Submit answer' }).click();
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  await waitForStoredSteps(page, 3);
  const steps = (await storedSteps(page)).sort((a, b) => a.t - b.t);
  expect(steps[0].action).toBe('Act: bash\n\n```bash\ncat /home/jack/test\n```');
  expect(steps[2].action).toBe('Act: answer(Awesome-AgentBench)');
});

test('OS: choosing WebContainer where it cannot boot (offline) falls back to the embedded shell with a clear notice', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await page.getByLabel(/WebContainer \(a real shell from StackBlitz/).check();
  await page.getByLabel('Seed', { exact: true }).fill('0');
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('notice')).toContainText('WebContainer is not available here', { timeout: 40_000 });
  await expect(page.getByTestId('notice')).toContainText('this episode uses the embedded shell instead');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 8/);
  await page.getByLabel('Or type the exact text a model would send').fill('Act: bash\n\n```bash\ncat /home/jack/test\n```');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
});

test('OS: choosing Linux where its image is not built falls back to the embedded shell with a clear notice', async ({ page }) => {
  // CI builds no v86 image (npm run os:image): the server answers 404 under /os-image/, and the
  // episode must still play, in the embedded shell, saying so.
  test.setTimeout(60_000);
  await page.goto('/');
  await page.getByLabel(/Linux \(Debian in the v86 emulator/).check();
  // The option says so in words for a participant: no build command.
  await expect(page.getByTestId('linux-unavailable')).toHaveText(': not available on this server, so episodes use the embedded shell', { timeout: 15_000 });
  await expect(page.getByText('npm run os:image')).toHaveCount(0);
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('notice')).toContainText('Linux is not available on this server', { timeout: 40_000 });
  await expect(page.getByTestId('notice')).toContainText('this episode uses the embedded shell instead');
  await expect(page.getByTestId('backend')).toHaveText('the embedded shell');
  await page.getByLabel('Or type the exact text a model would send').fill('Act: bash\n\n```bash\ncat /home/jack/test\n```');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
});

test('OS: a number key for answer or finish only asks first; a second press sends it, any other key cancels', async ({ page }) => {
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 8/);
  // The header's parts keep their spaces (Svelte trims white space at the start of a block).
  await expect(page.locator('header .meta')).toContainText(/^AgentBench · seed 0 · episode [0-9a-f]{8} · runs on /);
  const confirm = page.getByTestId('key-confirm');
  await page.keyboard.press('2'); // Act: finish
  await expect(confirm).toContainText('again to send');
  await expect(confirm).toContainText('it ends the episode');
  await page.waitForTimeout(300);
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await page.keyboard.press('Escape');
  await expect(confirm).toBeEmpty();
  await page.keyboard.press('2');
  await page.keyboard.press('3'); // another action's number: cancels finish, asks for the answer
  await expect(confirm).toContainText('answer(...)');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await page.keyboard.press('1'); // bash ls acts at once (and cancels)
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  await expect(confirm).toBeEmpty();
  await expect(page.getByTestId('key-legend')).toContainText('the first press only asks');
  await page.keyboard.press('3');
  await page.keyboard.press('3');
  await expect(page.getByTestId('outcome')).toContainText('Not solved');
  await expect(page.getByTestId('outcome')).toContainText('2 steps, score');
});

test('OS: a Play link the pointer rests on makes the episode ahead (its shell and init), and the episode is the one a direct link gives', async ({ page, browser }) => {
  // Count the shell workers the page starts (the embedded shell runs in one per episode, one more waits as a spare).
  await page.addInitScript(() => {
    const started: string[] = [];
    (window as unknown as { shellWorkers: string[] }).shellWorkers = started;
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (/shell-worker/.test(String(url))) started.push(String(url));
      }
    };
  });
  const shellWorkers = () => page.evaluate(() => (window as unknown as { shellWorkers: string[] }).shellWorkers.length);
  const command = 'Act: bash\n\n```bash\ntail -n 2 /usr/stock.log; date +%s; echo $RANDOM\n```';
  await page.goto('/');
  await page.getByTestId('seed').fill('5');
  await page.getByRole('searchbox', { name: /Search tasks/ }).fill('os-test-1-stock-00');
  const play = page.getByRole('link', { name: /^Play .*os-test-1-stock-00/ });
  await play.hover();
  // The task's shell starts once the pointer has rested on Play, its spare once that shell has run the task's init.
  await expect.poll(shellWorkers).toBe(2);
  await page.waitForTimeout(500);
  await play.click();
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 8/);
  const box = page.getByLabel('Or type the exact text a model would send');
  await box.fill(command);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  // The reset took the shell made ahead: no new worker.
  expect(await shellWorkers()).toBe(2);
  const prepared = await page.getByTestId('text-view').textContent();

  const other = await browser.newPage();
  await other.goto('/#/play/os/os-test-1-stock-00?seed=5');
  await expect(other.getByTestId('step-count')).toHaveText(/^0 \/ 8/);
  await other.getByLabel('Or type the exact text a model would send').fill(command);
  await other.getByRole('button', { name: 'Send' }).click();
  await expect(other.getByTestId('step-count')).toHaveText(/^1 \//);
  const direct = await other.getByTestId('text-view').textContent();
  expect(prepared).toContain('The output of the OS:');
  expect(prepared).toMatch(/(Alice|Bob) \| (Purchase|Sell) \| \d+ \| \d+/);
  expect(prepared).toBe(direct);
  await other.close();
});

test('OS: a page opened on a Play link starts its shell worker before the page is drawn, and the episode runs in it', async ({ page }) => {
  // Each shell worker: whether the page's view was on screen when it started, and the workers that got an init.
  await page.addInitScript(() => {
    const seen = { drawnAtStart: [] as boolean[], inits: [] as number[] };
    (window as unknown as { shellSeen: typeof seen }).shellSeen = seen;
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (!/shell-worker/.test(String(url))) return;
        const index = seen.drawnAtStart.length;
        seen.drawnAtStart.push((document.getElementById('app')?.childElementCount ?? 0) > 0);
        const post = this.postMessage.bind(this) as (message: unknown) => void;
        this.postMessage = (message: unknown) => {
          if ((message as { op?: string }).op === 'init') seen.inits.push(index);
          post(message);
        };
      }
    };
  });
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await page.getByLabel('Or type the exact text a model would send').fill('Act: bash\n\n```bash\necho opened-early\n```');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('text-view')).toContainText('opened-early');
  const seen = await page.evaluate(() => (window as unknown as { shellSeen: { drawnAtStart: boolean[]; inits: number[] } }).shellSeen);
  // Started as the page opened (nothing drawn yet), and the episode's shell is made in it, not in a second worker.
  expect(seen.drawnAtStart[0]).toBe(false);
  expect(seen.inits).toEqual([0]);
});

test('OS: the next task in the page runs in the worker the last one gave back, and sees nothing of it', async ({ page }) => {
  // Which worker each shell's init goes to (workers numbered as the page starts them).
  await page.addInitScript(() => {
    const inits: number[] = [];
    (window as unknown as { shellInits: number[] }).shellInits = inits;
    let started = 0;
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (!/shell-worker/.test(String(url))) return;
        const index = started++;
        const post = this.postMessage.bind(this) as (message: unknown) => void;
        this.postMessage = (message: unknown) => {
          if ((message as { op?: string }).op === 'init') inits.push(index);
          post(message);
        };
      }
    };
  });
  const inits = () => page.evaluate(() => (window as unknown as { shellInits: number[] }).shellInits);
  const box = page.getByLabel('Or type the exact text a model would send');
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await box.fill('Act: bash\n\n```bash\necho mine > /root/left.txt; cat /root/left.txt\n```');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('text-view')).toContainText('mine');
  // Another task, opened in the same page: the last episode's shell ends and gives its worker back.
  await page.evaluate(() => (location.hash = '#/play/os/os-dev-06?seed=1'));
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await box.fill('Act: bash\n\n```bash\ncat /root/left.txt; echo "exit $?"\n```');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('text-view')).toContainText('No such file or directory');
  await expect(page.getByTestId('text-view')).toContainText('exit 1');
  expect(await inits()).toEqual([0, 0]);
});
