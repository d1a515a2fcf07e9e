/** SmartPlay's own Crafter texts (tests/fixtures/upstream/crafter/text.json.gz, written by record_text.py there). */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Item } from '../../envs/crafter/engine/types.ts';

export interface Frame {
  obs: string;
  history: string;
  score: number;
  reward: number;
  done: boolean;
  achievements: Record<string, number>;
  inventory: Record<Item, number>;
  world: { pos: [number, number]; facing: [number, number]; sleeping: boolean; dead: boolean; action: string; window: number[][] };
}
export interface Episode {
  name: string;
  seed: number;
  actions: number[];
  frames: Frame[];
  prompts: { step: number; messages: { role: string; content: string }[][]; historyIndex: number }[];
}
export interface TextFixture {
  manual: string;
  actionList: string[];
  defaultIter: number;
  defaultSteps: number;
  matches: { reply: string; action: number }[];
  episodes: Episode[];
}

export const FIXTURE: TextFixture = JSON.parse(gunzipSync(readFileSync(new URL('../fixtures/upstream/crafter/text.json.gz', import.meta.url))).toString('utf8'));

