/**
 * BabyAI state predicates (issue 13: "agent next to / carrying object"). Parameters left
 * out or null match anything: {type: 'key'} is any key.
 * - `carrying` {type, color}: the agent holds such an object;
 * - `facing` {type, color, state}: the cell right in front of the agent holds such an
 *   object (minigrid's "next to" for go-to instructions; doors have state open/closed/locked).
 */
import type { BabyAIState } from '../index.ts';
import { getCell, inGrid } from '../grid.ts';
import { DIR_TO_VEC } from '../objects.ts';
import type { PredicateParams, PredicateTable } from '../../core/annotation.ts';

function fits(obj: { type: string; color: string; state?: string | null } | null, p: PredicateParams, keys: readonly string[]): boolean {
  if (!obj) return false;
  return keys.every((k) => p[k] === undefined || p[k] === null || p[k] === (obj as Record<string, unknown>)[k]);
}

export const BABYAI_PREDICATES: PredicateTable<BabyAIState> = {
  carrying: {
    describe: 'the agent carries an object of this type and colour',
    params: ['type', 'color'],
    test: (s, p) => fits(s.world.carrying, p, ['type', 'color']),
  },
  facing: {
    describe: 'the cell in front of the agent holds an object of this type, colour (and door state)',
    params: ['type', 'color', 'state'],
    test: (s, p) => {
      const [dx, dy] = DIR_TO_VEC[s.world.agentDir];
      const x = s.world.agentPos[0] + dx;
      const y = s.world.agentPos[1] + dy;
      return inGrid(s.world.grid, x, y) && fits(getCell(s.world.grid, x, y), p, ['type', 'color', 'state']);
    },
  },
};
