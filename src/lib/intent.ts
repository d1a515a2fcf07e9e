/**
 * Handlers that start something a person is about to need when the pointer rests on a control or
 * the focus stays on it (passing over a list, or tabbing through it, starts nothing): a task's
 * shell before its Play link opens it (prepareTask.ts), the scores view's file readers before a
 * file is chosen.
 */

/** How long the pointer rests, or the focus stays, before `act` runs. */
const REST_MS = 80;

export function onIntent(act: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(act, REST_MS);
  };
  const cancel = () => clearTimeout(timer);
  return { onpointerenter: soon, onpointerleave: cancel, onfocus: soon, onblur: cancel };
}
