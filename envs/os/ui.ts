/** The OS environment in the app: the terminal, the shell choice on its card, and its in-browser benchmark. */
import type { EnvUi } from '../core/ui.ts';
import { quantile } from '../core/stats.ts';
import { round2, roundTrips, timeResets } from '../core/benchSteps.ts';
import View from './ui/OsView.svelte';
import Options from './ui/ShellOptions.svelte';
import { resetTimes, SLOW_TEST_TASKS } from './resetTimes.ts';
import { parseAction } from './protocol.ts';
import { chooseOsShell, osShellChoice, type OsShellChoice } from './ui/shellChoice.ts';

/** How long before the click the bench prepares a task (a pointer resting on Play for 80 ms, then the click some 300 ms later). */
const POINTER_ON_PLAY_MS = 300;
/** How long after one episode's end the bench opens the next task without a pointer on Play (a person reading the outcome). */
const NEXT_TASK_PAUSE_MS = 1000;

export const ui: EnvUi = {
  View,
  Options,
  // A shell choice made earlier in this tab applies from the start.
  init: async ({ notify }) => {
    const saved = osShellChoice();
    if (saved !== 'embedded') await chooseOsShell(saved, notify);
  },
  useBackend: (id, { notify }) => chooseOsShell(id as OsShellChoice, notify),
  // Answer and finish end the episode: a stray number key must not send them.
  asksFirst: (action) => {
    const kind = parseAction(action)?.kind;
    return kind === 'answer' || kind === 'finish';
  },
  async browserBench() {
    const { os } = await import('./index.ts');
    const reset = await timeResets(os, ['os-dev-06', 'os-dev-19', 'os-dev-24']);
    for (const s of reset.states) os.dispose?.(s as never);
    // The test set's slowest resets, median of five each; a new shell comes from the spare worker.
    const slow: Record<string, number> = {};
    for (const id of SLOW_TEST_TASKS) {
      const times = await resetTimes(os, os.tasks().find((t) => t.id === id)!, { runs: 5 });
      slow[`os reset ${id} to first observation median ms`] = round2(times.observation);
      slow[`os reset ${id} init done median ms`] = round2(times.setUp);
    }
    // As a person meets them one after another: each opened a moment after a different task's episode ended.
    const afterOther: Record<string, number[]> = {};
    for (let round = 0; round < 5; round++) {
      for (const id of SLOW_TEST_TASKS) {
        const times = await resetTimes(os, os.tasks().find((t) => t.id === id)!, { runs: 1, pauseMs: NEXT_TASK_PAUSE_MS });
        (afterOther[id] ??= []).push(times.setUp);
      }
    }
    for (const id of SLOW_TEST_TASKS) slow[`os reset ${id} init done median ms (opened ${NEXT_TASK_PAUSE_MS / 1000} s after another task's episode ended)`] = round2(quantile(afterOther[id], 0.5));
    // As a person meets them from the catalogue: the pointer rests on Play a moment before the click (prepare).
    for (const id of SLOW_TEST_TASKS) {
      const times = await resetTimes(os, os.tasks().find((t) => t.id === id)!, { runs: 3, aheadMs: POINTER_ON_PLAY_MS });
      slow[`os reset ${id} init done median ms (made ahead ${POINTER_ON_PLAY_MS} ms before: a pointer on Play)`] = round2(times.setUp);
    }
    const cmd = await roundTrips(os, 'os-dev-06', 'Act: bash\n\n```bash\nls -1 /etc | wc -l\n```', 60, (s) => (s as { setup: Promise<unknown> }).setup);
    return {
      'os reset ms (dev tasks, to first observation)': round2(reset.ms),
      ...slow,
      'os command median ms': round2(quantile(cmd, 0.5)),
      'os command p95 ms': round2(quantile(cmd, 0.95)),
      ...(await linuxBench()),
    };
  },
};

/** Commands whose first run in an episode reads the disk: their time and download, then their time again. */
const FIRST_COMMANDS: [string, string][] = [
  ['python3', 'python3 -c "import json; print(json.dumps([6 * 7]))"'],
  ['ls -l /usr/bin', 'ls -l /usr/bin | wc -l'],
  ['find / (whole disk)', 'find / -xdev -name hostname 2>/dev/null | wc -l'],
];

/** How long a person takes between one Linux task's end and the next one's start, in the bench. */
const PERSON_PAUSE_MS = 2000;
/** How long a person reads a Linux task before the first command, in the bench. */
const PERSON_READS_MS = 8000;

/** Forty `echo` round trips on a Linux machine's session, each checked. */
async function echoTrips(shell: { exec(command: string): Promise<{ output: string }> }): Promise<number[]> {
  const trips: number[] = [];
  for (let c = 0; c < 40; c++) {
    const t = performance.now();
    const r = await shell.exec(`echo ${c}`);
    trips.push(performance.now() - t);
    if (r.output !== `${c}\n`) throw new Error(`linux: echo ${c} printed ${JSON.stringify(r.output)}`);
  }
  return trips;
}

/** The Linux backend's figures when this server has its image (npm run os:image): restore to prompt, echo round trips. */
async function linuxBench(): Promise<Record<string, number | string>> {
  const [{ BrowserLinuxShell, OS_IMAGE_BASE, linuxImageServed }, { fetchedBy }] = await Promise.all([import('./linux/browser.ts'), import('./linux/worker-protocol.ts')]);
  if (!(await linuxImageServed())) return { 'linux': 'no image on this server (npm run os:image)' };
  const restores: number[] = [];
  const trips: number[] = [];
  const firsts: Record<string, number | string> = {};
  for (let i = 0; i < 4; i++) {
    const t0 = performance.now();
    const shell = await BrowserLinuxShell.start();
    restores.push(performance.now() - t0);
    if (i === 0) {
      // What the page fetched (the saved state) and the machine's worker (v86, the BIOS, disk blocks) up to the prompt.
      const image = fetchedBy(performance, (url) => url.pathname.startsWith(OS_IMAGE_BASE));
      const atPrompt = await shell.fetched();
      firsts['linux transferred before the first prompt MB'] = round2((image.bytes + atPrompt.bytes) / 1e6);
      trips.push(...(await echoTrips(shell)));
      let before = await shell.fetched();
      // The first commands of an episode read from the disk what the saved state does not hold, by range requests in 64 KB pieces.
      for (const [name, command] of FIRST_COMMANDS) {
        const t = performance.now();
        await shell.exec(command);
        const ms = performance.now() - t;
        const after = await shell.fetched();
        firsts[`linux first ${name} after restore ms`] = round2(ms);
        firsts[`linux first ${name} after restore fetched MB (requests)`] = `${round2((after.bytes - before.bytes) / 1e6)} (${after.requests - before.requests})`;
        before = after;
      }
      for (const [name, command] of FIRST_COMMANDS) {
        const t = performance.now();
        await shell.exec(command);
        firsts[`linux ${name} again ms`] = round2(performance.now() - t);
      }
    }
    shell.dispose();
  }
  // As a person meets it: the next task opens a few seconds after the last one ended.
  const paced: number[] = [];
  const pacedTrips: number[] = [];
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, PERSON_PAUSE_MS));
    const t0 = performance.now();
    const shell = await BrowserLinuxShell.start();
    paced.push(performance.now() - t0);
    if (i === 0) {
      // The person reads the task, then types: the machine was made ahead.
      await new Promise((r) => setTimeout(r, PERSON_READS_MS));
      pacedTrips.push(...(await echoTrips(shell)));
    }
    shell.dispose();
  }
  return {
    // The first restore also fetches and unpacks the saved state; later ones reuse it (a new worker each).
    'linux first restore to prompt ms': round2(restores[0]),
    'linux restore to prompt median ms (state fetched)': round2(quantile(restores.slice(1), 0.5)),
    [`linux restore to prompt median ms (state fetched, ${PERSON_PAUSE_MS / 1000} s after the last episode)`]: round2(quantile(paced, 0.5)),
    // The page's first machine, at once after its restore (the next episode's machine is being made meanwhile).
    'linux command median ms': round2(quantile(trips, 0.5)),
    'linux command p95 ms': round2(quantile(trips, 0.95)),
    [`linux command median ms (a machine made ahead, ${PERSON_READS_MS / 1000} s after its task opened)`]: round2(quantile(pacedTrips, 0.5)),
    [`linux command p95 ms (a machine made ahead, ${PERSON_READS_MS / 1000} s after its task opened)`]: round2(quantile(pacedTrips, 0.95)),
    ...firsts,
  };
}
