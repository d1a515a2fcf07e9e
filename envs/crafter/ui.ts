/** Crafter in the app: the local view drawn as tiles, vitals, inventory, achievements; keyboard play. */
import type { EnvUi } from '../core/ui.ts';
import View from './ui/CrafterBoard.svelte';
import { crafterKey, CRAFTER_KEY_HINTS } from './keys.ts';

export const ui: EnvUi = {
  View,
  keymap: crafterKey,
  keyHints: CRAFTER_KEY_HINTS,
};
