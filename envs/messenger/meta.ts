import type { EnvMeta } from '../core/types.ts';

export const messengerMeta: EnvMeta = {
  id: 'messenger',
  title: 'MESSENGER',
  suites: [{ suite: 'smartplay' }],
  summary: 'Read a crowd-written manual, find which creature carries the message and which is the goal, and deliver it while dodging the enemy.',
  scoreRule:
    'Score = the last step’s reward (SmartPlay): 1 for delivering the message to the goal, 0.5 for picking the message up, −1 for touching an enemy (or the goal without the message), 0 otherwise.',
};
