/**
 * A page opened on an OS task's Play link (EnvEntry.opening): with the embedded shell chosen (the
 * default), its first worker starts now, so just-bash downloads and compiles while the page loads.
 * Kept out of the OS's own code so the catalogue's line can call it before that code has loaded.
 */
import { startEarlyWorker } from './embedded/browser-worker.ts';
import { osShellChoice } from './ui/shellChoice.ts';

export function openingOs(): void {
  if (osShellChoice() === 'embedded') startEarlyWorker();
}
