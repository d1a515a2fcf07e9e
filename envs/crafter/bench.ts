import type { EnvBench } from '../core/types.ts';
export const bench: EnvBench = { title: 'Crafter', run: async () => [] };
