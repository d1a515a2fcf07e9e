/**
 * SmartPlay's conversation, turn by turn: the model driver plays scripted replies on each game we
 * run and every request it sends must equal, message for message, the request SmartPlay's own
 * driver (examples/experiment.py at 9dec5f2, on SmartPlay's own environments) sent for the same
 * replies (tests/fixtures/upstream/smartplay/conversation: recorded by record.py there). That covers
 * the system messages (the curly ’ of the first, the manual, the history window with its step
 * numbers, "current step observation: "), the two questions with the first answer between them,
 * the observation after an action, and which action the second answer selects (match_act).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requestsEqualUpstream, scriptedRequests } from '../support/scripted-requests.ts';
import type { ChatMessage } from '../../envs/core/prompts/index.ts';

interface Scenario {
  taskId: string;
  upstreamEnv: string;
  /** Our episode's seed, and the Python seed upstream ran with: both give the same observations (see the README). */
  seed: number;
  pythonSeed: number;
  /** Two replies per step: the answer to the first question, then the action text. */
  replies: string[];
}

const dir = new URL('../fixtures/upstream/smartplay/conversation/', import.meta.url);
const scenarios = JSON.parse(readFileSync(new URL('scenarios.json', dir), 'utf8')) as Record<string, Scenario>;
const upstream = JSON.parse(readFileSync(new URL('requests.json', dir), 'utf8')) as Record<string, { requests: ChatMessage[][] }>;


/** Our seed for the scenario (one whose draws match upstream's), one step per two replies. */
const requestsOf = (name: string) => scriptedRequests(scenarios[name].taskId, scenarios[name].replies, { seed: scenarios[name].seed, maxSteps: scenarios[name].replies.length / 2 });

describe("SmartPlay's conversation as its own driver sends it", () => {
  requestsEqualUpstream(Object.keys(scenarios), requestsOf, (n) => upstream[n].requests);

  it('every step asks two questions over four system messages (three at the first step: no history yet)', () => {
    for (const name of Object.keys(scenarios)) {
      const requests = upstream[name].requests;
      expect(requests.length, name).toBe(scenarios[name].replies.length);
      expect(requests[0].map((m) => m.role), name).toEqual(['system', 'system', 'system', 'user']);
      expect(requests[1].map((m) => m.role), name).toEqual(['system', 'system', 'system', 'user', 'assistant', 'user']);
      expect(requests[2][2].content, name).toMatch(/^Most recent 1 steps of the player's in-game observation:\n\nPlayer Observation Step 0:\n/);
    }
  });
});
