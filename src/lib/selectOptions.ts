import { nextTask } from './nextTask.ts';

/** Options put in at once; the rest follow a slice a task (a list box shows the first few). */
const FIRST = 100;
const A_TASK = 200;

/**
 * A Svelte action filling a <select> with one option per value (text = value, set as text,
 * never HTML). For long lists: a task list of 900 options as a keyed {#each} held the page for
 * hundreds of ms (an effect per option); plain elements take a few, but styling and laying out
 * 900 options at once took 16–40 ms of one frame, so past the first hundred they go in a slice
 * a task. A `bind:value` on the same select re-syncs its selection as options come (Svelte
 * watches the children).
 */
export function selectOptions(select: HTMLSelectElement, values: readonly string[]): { update(values: readonly string[]): void; destroy(): void } {
  let generation = 0;
  const option = (x: string) => new Option(x, x);
  const fill = (list: readonly string[]) => {
    const mine = ++generation;
    select.replaceChildren(...list.slice(0, FIRST).map(option));
    void (async () => {
      for (let i = FIRST; i < list.length; i += A_TASK) {
        await nextTask();
        if (mine !== generation) return;
        select.append(...list.slice(i, i + A_TASK).map(option));
      }
    })();
  };
  fill(values);
  return { update: fill, destroy: () => void generation++ };
}
