/**
 * A Svelte action filling a <select> with one option per value (text = value, set as text,
 * never HTML). For long lists: a task list of 900 options as a keyed {#each} held the page for
 * hundreds of ms (an effect per option); plain elements take a few. A `bind:value` on the same
 * select re-syncs its selection when the options change (Svelte watches the children).
 */
export function selectOptions(select: HTMLSelectElement, values: readonly string[]): { update(values: readonly string[]): void } {
  const fill = (list: readonly string[]) => select.replaceChildren(...list.map((x) => new Option(x, x)));
  fill(values);
  return { update: fill };
}
