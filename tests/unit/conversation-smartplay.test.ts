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
import { getTask, loadEnv } from '../../envs/index.ts';
import { startEpisode, whenIdle } from '../../envs/core/runner.ts';
import { runModelDriver } from '../../runtime/drivers/index.ts';
import type { ChatClient, ChatRequest, ChatResult } from '../../runtime/models/types.ts';
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

/** Plays the scenario's replies with the model driver, one step per two replies, and returns every request it sent. */
async function requestsOf(name: string): Promise<ChatMessage[][]> {
  const { taskId, seed, replies } = scenarios[name];
  const env = await loadEnv(taskId.split('-')[0]);
  const task = getTask(env, taskId);
  const actor = startEpisode(env, task, { seed });
  await whenIdle(actor);
  const sent: ChatMessage[][] = [];
  const client: ChatClient = {
    kind: 'fake',
    model: 'scripted',
    async complete(request: ChatRequest): Promise<ChatResult> {
      sent.push(request.messages.map((m) => ({ role: m.role, content: m.content })));
      return { text: replies[sent.length - 1] ?? '', latencyMs: 0, finishReason: 'stop' };
    },
  };
  await runModelDriver({ actor, env, task, client, maxSteps: replies.length / 2 });
  return sent;
}

describe("SmartPlay's conversation as its own driver sends it", () => {
  for (const name of Object.keys(scenarios)) {
    it(`${name}: every request equals upstream's (${upstream[name].requests.length} requests)`, async () => {
      const ours = await requestsOf(name);
      const theirs = upstream[name].requests;
      expect(ours.length).toBe(theirs.length);
      for (let i = 0; i < theirs.length; i++) expect(ours[i], `request ${i + 1}`).toEqual(theirs[i]);
    }, 60_000);
  }

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
