/**
 * Which embedded shell an episode gets. In a browser (page or worker): the guarded one, in a Web Worker with a
 * deadline enforced from outside (guarded.ts), so no command can freeze the page. In Node: the
 * in-thread one unless the caller installs the guarded worker (the CLI does, with
 * nodeGuardedShellFactory); tests of the shell itself and benches of its raw speed use the
 * in-thread one explicitly (inThreadShellFactory).
 */
import type { ShellFactory } from '../shell.ts';

/** The embedded shell on the calling thread: no protection against a command that never yields. */
export const inThreadShellFactory: ShellFactory = async ({ seed }) => {
  const { createEmbeddedShell } = await import('./index.ts');
  return createEmbeddedShell({ seed });
};

// A browser page or a browser worker (the replay verifier's: workers can start workers); not Node.
const inBrowser = typeof Worker !== 'undefined' && !(typeof process !== 'undefined' && process.versions?.node);

/** The default: guarded in a Web Worker in browsers, in-thread elsewhere. */
export const defaultEmbeddedShellFactory: ShellFactory = inBrowser
  ? async (options) => (await import('./guarded.ts')).browserGuardedShellFactory()(options)
  : inThreadShellFactory;
