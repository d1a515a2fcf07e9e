/** ALFWorld in the app: the house view (receptacles seen, what you hold, the goal, the commands). */
import type { EnvUi } from '../core/ui.ts';
import View from './ui/AlfworldView.svelte';

export const ui: EnvUi = { View };
