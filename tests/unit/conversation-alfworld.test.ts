/**
 * ALFWorld's conversations, turn by turn, under both benchmarks: the model driver plays scripted
 * replies and every request it sends must equal, message for message, the request the benchmark's
 * own code sent for the same replies (tests/fixtures/upstream/alfworld/conversation, recorded by
 * record_agentbench.py and record_agentboard.py there, on the upstream TextWorld + ALFWorld engine
 * with ALFWorld's 2.1.2 patch reversed, the wording both benchmarks ran).
 *
 * AgentBench House-Holding (41e6807's ALFWorld task + Session): the instruction, the fixed reply,
 * the one-shot example of the game's type, "Here is your task. " + the welcome text, the
 * " AVAILABLE ACTIONS: " lists and their cut from answered turns, BLEU's mapping of replies that are
 * not admissible (nltk's sentence_bleu with method4), the three-identical-replies rule, a reply
 * without "ACTION:", the 35-step limit and the session's 3,500-segment history cut.
 * AgentBoard ALFWorld (bb7255e's Evalalfworld loop + VanillaAgent + OPENAI_GPT): the system
 * message, instruction, examples by type, goal and help lines, and the history with
 * "check valid actions", "look", "put X in Y" rewritten to "in/on", a final "." and a command
 * that is not admissible.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requestsEqualUpstream, scriptedRequests } from '../support/scripted-requests.ts';
import type { ChatMessage } from '../../envs/core/prompts/index.ts';
import { GAMES, TASKS } from '../../envs/alfworld/games.ts';

const dir = new URL('../fixtures/upstream/alfworld/conversation/', import.meta.url);
const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as T;

interface Recorded {
  game: string;
  status: string;
  requests: ChatMessage[][];
}

const gameOf = (taskId: string) => GAMES[TASKS.find((t) => t.id === taskId)!.game].path;

describe("AgentBench House-Holding's conversation as its own code sends it", () => {
  const scenarios = read<Record<string, { taskId: string; replies: string[] }>>('scenarios-agentbench.json');
  const upstream = read<Record<string, Recorded & { result: number | boolean; actions: string[] }>>('requests-agentbench.json');
  requestsEqualUpstream(Object.keys(scenarios), (n) => scriptedRequests(scenarios[n].taskId, scenarios[n].replies), (n) => upstream[n].requests);

  it('each task id plays the game AgentBench plays at that index of its split', () => {
    for (const name of Object.keys(scenarios)) expect(`json_2.1.1/${gameOf(scenarios[name].taskId)}`, name).toBe(upstream[name].game);
  });

  it('the scenarios end as upstream says: solved, repetition, no "ACTION:", step limit', () => {
    expect(upstream['std-00-solve'].status).toBe('completed');
    expect(upstream['std-00-solve'].result).toBe(true);
    expect(upstream['std-12-bleu-repeat'].status).toBe('agent invalid action');
    expect(upstream['dev-08-long-noaction'].status).toBe('agent invalid action');
    expect(upstream['std-20-limit'].status).toBe('task limit reached');
    expect(upstream['std-20-limit'].requests).toHaveLength(35);
    // BLEU mapped a one-word reply ("sinkbasin") to "go to sinkbasin 1": nltk skips zero precisions.
    expect(upstream['std-12-bleu-repeat'].actions[2]).toBe('go to sinkbasin 1');
    // The session's 3,500-segment cut: the notice ends the instruction.
    expect(upstream['std-20-limit'].requests.at(-1)![0].content).toMatch(/\n\n\[NOTICE\] \d+ messages are omitted\.$/);
  });
});

describe("AgentBoard ALFWorld's conversation as its own code sends it", () => {
  const scenarios = read<Record<string, { taskId: string; problem: number; llm: string; replies: string[] }>>('scenarios-agentboard.json');
  const upstream = read<Record<string, Recorded>>('requests-agentboard.json');
  requestsEqualUpstream(Object.keys(scenarios), (n) => scriptedRequests(scenarios[n].taskId, scenarios[n].replies, { maxSteps: scenarios[n].replies.length }), (n) => upstream[n].requests);

  it("each task id plays the game at that place of AgentBoard's order (its problem id)", () => {
    for (const name of Object.keys(scenarios)) {
      expect(Number(scenarios[name].taskId.slice(-3)), name).toBe(scenarios[name].problem);
      expect(gameOf(scenarios[name].taskId), name).toBe(`valid_unseen/${upstream[name].game}/game.tw-pddl`);
    }
  });

  it('each request is a system message and one user message ending in "\\nAction: "; the solving scenario is done', () => {
    for (const name of Object.keys(scenarios)) {
      for (const request of upstream[name].requests) {
        expect(request.map((m) => m.role), name).toEqual(['system', 'user']);
        expect(request[1].content.endsWith('\nAction: '), name).toBe(true);
      }
    }
    expect(upstream['alfworld-000-solve'].status).toBe('completed');
    expect(upstream['alfworld-003-quirks'].status).toBe('running');
  });
});
