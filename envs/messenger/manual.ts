/**
 * MESSENGER's manual as SmartPlay shows it (README.md, Upstream): the game
 * context, the entity sentences (one per line), the advice and the action list,
 * separated by blank lines. The sentences are drawn from the crowd-sourced test
 * texts as messenger-emma draws them:
 *   stage 1: per role, one of the entity's "immovable" or "unknown" sentences;
 *   stage 2: per role, with probability 0.15 an "unknown" sentence (no movement
 *            information), else one of the role's true movement type;
 *   stage 3: six sentences: enemy, message and goal with their true types; the
 *            message and the goal entity each described as an enemy with its decoy's
 *            type; the enemy entity described in a non-enemy role (message or goal,
 *            the first in a random order that has sentences) with a movement type
 *            other than its own.
 * The sentences are shuffled in every stage.
 */
import type { Rng } from '../core/rng.ts';
import { describeActions } from '../core/smartplay.ts';
import texts from './data/text_test.json';
import { MESSENGER_ACTIONS, type EntityName, type Movement, type TextRole, type TextType } from './entities.ts';

type Texts = Record<string, Record<TextRole, Record<TextType, string[]>>>;
const TEXTS = texts as Texts;

/** The context paragraph (curly apostrophe and Unicode minus, as upstream). */
export const MESSENGER_CONTEXT =
  'In the game, MESSENGER, each entity can take on one of three roles: an enemy, message, or goal. The agent’s objective is to bring the message to the goal while avoiding the enemies. If the agent encounters an enemy at any point in the game, or the goal without first obtaining the message, it loses the game and obtains a reward of −1.';

export const MESSENGER_ADVICE =
  'To solve a game, you may find it helpful to list the objects that you see. Then for each object, match it with an entity description, and identify whether it is good or bad to interact with the object.\nThe name specifications of in-game objects may not be exact matches. Please try identifying with synonyms.';

/** Stage 2's chance that a sentence carries no movement information. */
export const UNKNOWN_PROBABILITY = 0.15;

/** The sentences of one entity in one role and type (throws on a combination the test split lacks). */
export function sentencesOf(entity: EntityName, role: TextRole, type: TextType): readonly string[] {
  const list = TEXTS[entity]?.[role]?.[type];
  if (!list || list.length === 0) throw new Error(`MESSENGER has no ${type} sentence for ${entity} as ${role}.`);
  return list;
}

function pick(rng: Rng, list: readonly string[]): string {
  return list[rng.below(list.length)];
}

const ROLES: readonly TextRole[] = ['enemy', 'message', 'goal'];

export function stageOneSentences(rng: Rng, game: readonly EntityName[]): string[] {
  const out = ROLES.map((role, i) => {
    const entity = game[i];
    const pool = [...(TEXTS[entity][role].immovable ?? []), ...(TEXTS[entity][role].unknown ?? [])];
    if (pool.length === 0) throw new Error(`MESSENGER has no stage-1 sentence for ${entity} as ${role}.`);
    return pick(rng, pool);
  });
  return rng.shuffle(out);
}

export function stageTwoSentences(rng: Rng, game: readonly EntityName[], types: readonly Movement[]): string[] {
  const out = ROLES.map((role, i) => pick(rng, sentencesOf(game[i], role, rng.uniform() < UNKNOWN_PROBABILITY ? 'unknown' : types[i])));
  return rng.shuffle(out);
}

/** `types`: enemy, message, goal, decoy message, decoy goal. */
export function stageThreeSentences(rng: Rng, game: readonly EntityName[], types: readonly Movement[]): string[] {
  const [enemy, message, goal] = game;
  const out = [
    pick(rng, sentencesOf(enemy, 'enemy', types[0])),
    pick(rng, sentencesOf(message, 'message', types[1])),
    pick(rng, sentencesOf(goal, 'goal', types[2])),
    pick(rng, sentencesOf(message, 'enemy', types[3])),
    pick(rng, sentencesOf(goal, 'enemy', types[4])),
  ];
  // The decoy sentence: the enemy entity in another role, with another movement type.
  const roles = rng.shuffle<TextRole>(['message', 'goal']);
  const otherTypes = (['chaser', 'fleeing', 'immovable'] as const).filter((t) => t !== types[0]);
  const type = otherTypes[rng.below(otherTypes.length)];
  const role = roles.find((r) => (TEXTS[enemy][r][type] ?? []).length > 0);
  if (!role) throw new Error(`MESSENGER has no decoy sentence for ${enemy} as ${type}.`);
  out.push(pick(rng, TEXTS[enemy][role][type]));
  return rng.shuffle(out);
}

/** The whole manual text for a set of sentences. */
export function composeManual(sentences: readonly string[]): string {
  return `${MESSENGER_CONTEXT}\n\n${sentences.join('\n')}\n\n${MESSENGER_ADVICE}\n\n${describeActions(MESSENGER_ACTIONS)}`.trim();
}
