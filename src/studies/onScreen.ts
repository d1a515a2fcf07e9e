/** The moment a task is on screen: its environment's view loaded, and the page painted with it. */
import { tick } from 'svelte';
import { loadUi } from '../lib/envUi.ts';

export async function taskOnScreen(envId: string): Promise<void> {
  await loadUi(envId);
  await tick();
  // A frame, then the paint that follows it (a hidden tab paints nothing, so this waits until it is shown).
  await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
