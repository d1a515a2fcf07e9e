/**
 * The OS task's shell backend, chosen in the catalogue: the embedded simulated shell
 * (default) or a WebContainer, which needs StackBlitz's servers (internet) and a
 * cross-origin-isolated page. A WebContainer that does not boot in time falls back to
 * the embedded shell, and the person is told. Linux runs Debian in the v86 emulator from the
 * image `npm run os:image` builds (served by vite under /os-image/).
 */
export type OsShellChoice = 'embedded' | 'webcontainer' | 'linux';
const KEY = 'agentplay.osShell';
/** Linux was chosen in this page (only then may a spare Linux worker wait). */
let linuxChosen = false;

export function osShellChoice(): OsShellChoice {
  const saved = sessionStorage.getItem(KEY);
  return saved === 'webcontainer' || saved === 'linux' ? saved : 'embedded';
}

export async function chooseOsShell(choice: OsShellChoice, notify: (message: string) => void): Promise<void> {
  sessionStorage.setItem(KEY, choice);
  const os = await import('../index.ts');
  // A Linux worker kept ready for the next episode is not needed by another shell.
  if (choice !== 'linux' && linuxChosen) (await import('../linux/browser.ts')).dropLinuxSpare();
  linuxChosen ||= choice === 'linux';
  if (choice === 'embedded') {
    os.setOsShellFactory(null);
    return;
  }
  if (choice === 'linux') {
    // Real Linux in the v86 emulator (a web worker per episode); the image must be built and served.
    const { BrowserLinuxShell, linuxImageServed, warmLinuxState } = await import('../linux/browser.ts');
    warmLinuxState();
    os.setOsShellFactory(async ({ seed }) => {
      if (await linuxImageServed()) return BrowserLinuxShell.start();
      notify('Linux is not available on this server; this episode uses the embedded shell instead.');
      const { createEmbeddedShell } = await import('../embedded/index.ts');
      return createEmbeddedShell({ seed });
    });
    return;
  }
  const { bootOrFallback } = await import('../webcontainer.ts');
  os.setOsShellFactory(async ({ seed }) => {
    const { shell, notice } = await bootOrFallback({ seed });
    if (notice) notify(`WebContainer is not available here (${notice}); this episode uses the embedded shell instead.`);
    return shell;
  });
}
