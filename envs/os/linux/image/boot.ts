/**
 * Boots the built image once in v86 (Node), waits for both serial shells, and saves the machine
 * state (gzip) beside the image as state.bin.gz: every episode restores it instead of booting.
 * Skipped when the state is already there, newer than the image and made by the same recipe
 * (state.recipe.json beside it). Prints the boot time.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { IMAGE_DIR, STATE_FILE, imageFiles, linuxImagePresent, loadV86, restoreMachine } from '../node.ts';
import { LinuxMachine } from '../machine.ts';

const force = process.argv.includes('--force');
const verbose = process.argv.includes('--verbose');
const rewarm = process.argv.includes('--rewarm');

/**
 * What the saved state keeps in the guest's page cache: what nearly every task's first commands
 * use (the shell's tools, python3's start-up and common modules, user management, sudo), nothing
 * more. The rest of the disk is read on demand: in the browser by HTTP range requests as the guest
 * reads its blocks (issue 30: 65 MB gzip when every binary, library and python module was cached,
 * 22 MB this way; a whole-disk `find /` is left to read its inodes when a task asks).
 */
const WARM = [
  'python3 -c "import os, sys, time, re, json, subprocess, collections, math, random, datetime, pathlib, shutil, glob"',
  'ls -la / >/dev/null; find /etc /root /home /var -maxdepth 3 >/dev/null 2>&1; id; date; useradd --help >/dev/null; sudo -V >/dev/null; awk "BEGIN{}"; sed --version >/dev/null; grep -q x /etc/hostname; wc -l /etc/passwd; stat / >/dev/null; du -s /etc >/dev/null; ps aux >/dev/null; echo warm',
];

/**
 * Before warming: the boot's page cache dropped, then the free memory zeroed (a tmpfs filled with
 * zeros up to all but 3 MB of what is free, then removed): v86 leaves zero pages out of a saved
 * state, and what the boot left in freed pages would otherwise be saved and downloaded.
 */
const CLEAN = [
  'sync; echo 3 > /proc/sys/vm/drop_caches',
  'n=$(( ($(awk \'/MemFree/{print $2}\' /proc/meminfo) - 3072) / 1024 )); mkdir -p /run/zero && mount -t tmpfs -o size=${n}m tmpfs /run/zero && dd if=/dev/zero of=/run/zero/fill bs=1M count=$n 2>/dev/null; rm -f /run/zero/fill; umount /run/zero; rmdir /run/zero; echo 3 > /proc/sys/vm/drop_caches; echo cleaned',
];

/**
 * Run in both serial shells before saving: bash reads their command lines without readline (the
 * tty's own line editing instead). Readline took most of the guest's time for each command line
 * typed to it, 3.6 of 5.7 ms of emulated CPU for an `echo` in Node; in Chromium a median of 9.5 ms
 * instead of 22 once it was off (npm run bench). What a task can see of it: `set -o` lists emacs as off
 * and $SHELLOPTS lacks it; a shell started inside (`su - user`, `bash`) has readline as usual.
 */
const SHELLS = ['set +o emacs'];

/** How the state is made: a state made another way (an older recipe) is made again. */
const RECIPE = JSON.stringify({ clean: CLEAN, warm: WARM, shells: SHELLS, gzip: 9 });
const RECIPE_FILE = 'state.recipe.json';

async function main(): Promise<void> {
  if (!linuxImagePresent(false)) throw new Error(`no image in ${IMAGE_DIR}: run envs/os/linux/image/build.sh first`);
  const stateFile = join(IMAGE_DIR, STATE_FILE);
  const recipeFile = join(IMAGE_DIR, RECIPE_FILE);
  const sameRecipe = existsSync(recipeFile) && readFileSync(recipeFile, 'utf8') === RECIPE;
  if (!force && !rewarm && sameRecipe && existsSync(stateFile) && statSync(stateFile).mtimeMs > statSync(join(IMAGE_DIR, 'disk.img')).mtimeMs) {
    console.log(`os-image: state up to date (${stateFile})`);
    return;
  }
  const started = Date.now();
  // --rewarm: start from the saved state (no boot) and only redo the warm-up below.
  const machine = rewarm ? await restoreMachine() : await LinuxMachine.start(await loadV86(), imageFiles());
  if (verbose) {
    machine.session.onText = () => {};
    const timer = setInterval(() => process.stdout.write(machine.session.takeText()), 200);
    timer.unref();
  }
  if (!(await machine.ready(1_200_000))) throw new Error('the guest did not reach a shell prompt on both serial ports within 1200 s');
  const booted = Date.now() - started;
  // Settle the guest: the script runner's tty does no CRLF conversion (scripts' output is recorded as printed).
  const setup = await machine.runner.run('stty -onlcr; echo ok', { timeoutMs: 30_000 });
  if (setup.timedOut || !setup.output.includes('ok')) throw new Error(`setting up the runner failed: ${JSON.stringify(setup.output)}`);
  const warmStarted = Date.now();
  for (const command of CLEAN) {
    const r = await machine.runner.run(command, { timeoutMs: 120_000 });
    if (r.timedOut) throw new Error(`cleaning the guest's memory timed out: ${command}`);
  }
  for (const command of WARM) {
    const r = await machine.runner.run(command, { timeoutMs: 600_000 });
    if (r.timedOut) throw new Error(`warming the page cache timed out: ${command}`);
  }
  // The session reads what its commands need once too (bash's own completion of its start-up).
  await machine.session.run('python3 -c "import time"; ls >/dev/null', { timeoutMs: 120_000 });
  console.log(`os-image: page cache warmed in ${((Date.now() - warmStarted) / 1000).toFixed(0)} s`);
  for (const command of SHELLS) for (const shell of [machine.session, machine.runner]) await shell.run(command, { timeoutMs: 10_000 });
  await machine.session.run('cd /', { timeoutMs: 10_000 });
  const state = await machine.save();
  await machine.destroy();
  const gz = gzipSync(new Uint8Array(state), { level: 9 });
  writeFileSync(stateFile, gz);
  writeFileSync(recipeFile, RECIPE);
  console.log(`os-image: booted to both shells in ${(booted / 1000).toFixed(1)} s; state ${(state.byteLength / 1e6).toFixed(1)} MB, ${(gz.byteLength / 1e6).toFixed(1)} MB gzip → ${stateFile}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`os-image: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  },
);
