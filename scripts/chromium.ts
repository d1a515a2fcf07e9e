/**
 * The Chromium the browser tests and the benchmark use: CHROMIUM_PATH if set, else
 * Debian's /usr/bin/chromium, else undefined (Playwright's own browser). The flags keep
 * it from reaching out to the network, which machines without internet refuse.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `vite preview` of a built app on 127.0.0.1:port, once it answers (the benchmarks' page server). */
export async function servePreview(outDir: string, port: number): Promise<{ url: string; close(): void }> {
  // A server left on the port (an earlier run killed midway) would answer for another build, and
  // this one, with --strictPort, would quietly exit: refuse instead.
  // (A server just closed may answer a moment longer: wait up to 5 s for it to go.)
  const answers = () =>
    fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
  let taken = await answers();
  for (let i = 0; i < 50 && taken; i++) {
    await new Promise((r) => setTimeout(r, 100));
    taken = await answers();
  }
  if (taken) throw new Error(`Port ${port} already answers (a server left from an earlier run?): stop it (pkill -f "vite preview") and run again.`);
  const server = spawn('npx', ['vite', 'preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { stdio: 'ignore', detached: true });
  const url = `http://127.0.0.1:${port}/`;
  const close = () => {
    if (server.pid) process.kill(-server.pid);
  };
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return { url, close };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  close();
  throw new Error(`vite preview did not answer on ${url} within 20 s.`);
}
