/** ALFWorld in the app: the house view (receptacles seen, what you hold, the goal) with the commands grouped by verb and searchable. */
import type { EnvUi } from '../core/ui.ts';
import View from './ui/AlfworldView.svelte';

export const ui: EnvUi = {
  View,
  // The view lists the commands itself (dozens in some states), grouped by verb, with a search.
  actionsInView: true,
  keyHints: [
    { keys: '/', does: 'visual view: go to the command search' },
    { keys: 'Enter', does: 'in the command search: play the first command shown' },
    { keys: 'Esc', does: 'in the command search: clear it and leave it' },
  ],
};
