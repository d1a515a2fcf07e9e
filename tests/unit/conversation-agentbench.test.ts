/**
 * AgentBench's conversation, turn by turn: the model driver plays scripted replies on the OS and
 * DB environments and every request it sends must equal, message for message, the request
 * AgentBench's own code sent for the same replies (tests/fixtures/upstream/agentbench/conversation:
 * recorded by running AgentBench 41e6807's Session and task code, see record.py there). That
 * covers the injected opening (OS: 7 messages, DB: 3), the roles, each observation's wording and
 * the history cut with its "[NOTICE] n messages are omitted." once 3,500 segments are passed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requestsEqualUpstream, scriptedRequests } from '../support/scripted-requests.ts';
import type { ChatMessage } from '../../envs/core/prompts/index.ts';
import { importAgentBenchRuns } from '../../runtime/importers/index.ts';

const dir = new URL('../fixtures/upstream/agentbench/conversation/', import.meta.url);
const scenarios = JSON.parse(readFileSync(new URL('scenarios.json', dir), 'utf8')) as Record<string, { taskId: string; replies: string[] }>;
const upstream = JSON.parse(readFileSync(new URL('requests.json', dir), 'utf8')) as Record<string, { requests: ChatMessage[][]; status: string; history: { role: string; content: string }[] }>;


describe("AgentBench's conversation as its own code sends it", () => {
  requestsEqualUpstream(Object.keys(scenarios), (n) => scriptedRequests(scenarios[n].taskId, scenarios[n].replies), (n) => upstream[n].requests);

  it('the OS opening is seven messages and the DB opening three, before the first reply', () => {
    expect(upstream['os-dev-13'].requests[0].map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(upstream['os-dev-13'].requests[0][6].content).toBe("Now, I will start a new problem in a new OS. My problem is:\n\nWhat's the count of my CPUs?");
    expect(upstream['db-dev-000'].requests[0].map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(upstream['db-dev-000'].requests[0][1].content).toBe('Ok.');
    // The OS history is cut once it passes 3,500 segments: the notice ends the first message.
    expect(upstream['os-dev-13'].requests.at(-1)![0].content).toMatch(/\n\n\[NOTICE\] \d+ messages are omitted\.$/);
  });

  // runs.jsonl logs the session's whole history: the importer finds the opening by the suite's
  // structure and records, for each reply, the request AgentBench's session actually sent.
  for (const name of Object.keys(scenarios)) {
    it(`${name}: an imported runs.jsonl line records every request as upstream sent it`, async () => {
      const { taskId } = scenarios[name];
      const env = taskId.split('-')[0];
      const index = env === 'os' ? Number(taskId.slice(-2)) : Number(taskId.slice(-3));
      const line = { index, output: { index, status: 'completed', result: { result: true, index_in_file: index }, history: upstream[name].history } };
      const [episode] = await importAgentBenchRuns(JSON.stringify(line), { env, model: 'scripted' });
      expect(episode.header.task).toBe(taskId);
      expect(episode.steps.map((s) => s.model!.calls[0].messages)).toEqual(upstream[name].requests);
    });
  }
});
