/**
 * AgentBoard's conversation, turn by turn: the model driver plays scripted replies on a BabyAI and
 * a PDDL problem and every request it sends must equal, message for message, the request
 * AgentBoard's own code sent for the same replies (tests/fixtures/upstream/agentboard/conversation:
 * recorded by record.py there, which runs AgentBoard bb7255e's task loop, VanillaAgent, OPENAI_GPT's
 * message building and token count, and the real BabyAI (Minigrid 2.3.0) and PDDL (vendored
 * pddlgym) environments). That covers the system message of the prompt file, the instruction,
 * examples, goal and help lines, and the history of observations and actions with its errors,
 * "check valid actions" listings and the closing "\nAction: ".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requestsEqualUpstream, scriptedRequests } from '../support/scripted-requests.ts';
import type { ChatMessage } from '../../envs/core/prompts/index.ts';

interface Scenario {
  taskId: string;
  task: 'babyai' | 'pddl';
  /** AgentBoard's problem id (the same problem as our task). */
  problem: number;
  /** The eval config's LLM whose context length and token count fit the history. */
  llm: string;
  replies: string[];
}

const dir = new URL('../fixtures/upstream/agentboard/conversation/', import.meta.url);
const scenarios = JSON.parse(readFileSync(new URL('scenarios.json', dir), 'utf8')) as Record<string, Scenario>;
const upstream = JSON.parse(readFileSync(new URL('requests.json', dir), 'utf8')) as Record<string, { status: 'completed' | 'running'; requests: ChatMessage[][] }>;


describe("AgentBoard's conversation as its own code sends it", () => {
  requestsEqualUpstream(Object.keys(scenarios), (n) => scriptedRequests(scenarios[n].taskId, scenarios[n].replies, { maxSteps: scenarios[n].replies.length }), (n) => upstream[n].requests);

  it('each request is a system message and one user message ending in "\\nAction: "', () => {
    for (const name of Object.keys(scenarios)) {
      for (const request of upstream[name].requests) {
        expect(request.map((m) => m.role), name).toEqual(['system', 'user']);
        expect(request[1].content.endsWith('\nAction: '), name).toBe(true);
      }
    }
    expect(upstream['babyai-4'].requests[0][0].content).toBe('You are an exploration master that wants to finish every goal you are given.');
    expect(upstream['pddl-20'].requests[0][0].content).toBe('You are a master in planning.');
  });
});
