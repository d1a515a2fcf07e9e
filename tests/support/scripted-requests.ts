/**
 * The conversation conformance tests' player: the model driver plays a task with scripted replies
 * (one per request) and every request it sends is returned, to compare with the requests
 * upstream's own code sent for the same replies (tests/fixtures/upstream/<benchmark>/conversation/).
 */
import { expect, it } from 'vitest';
import { getTask, loadEnv } from '../../envs/index.ts';
import { startEpisode, whenIdle } from '../../envs/core/runner.ts';
import type { ChatMessage } from '../../envs/core/prompts/index.ts';
import { runModelDriver } from '../../runtime/drivers/index.ts';
import type { ChatClient, ChatRequest, ChatResult } from '../../runtime/models/types.ts';

export async function scriptedRequests(taskId: string, replies: readonly string[], options: { seed?: number; maxSteps?: number } = {}): Promise<ChatMessage[][]> {
  const env = await loadEnv(taskId.split('-')[0]);
  const task = getTask(env, taskId);
  const actor = startEpisode(env, task, { seed: options.seed ?? 0 });
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
  await runModelDriver({ actor, env, task, client, maxSteps: options.maxSteps });
  return sent;
}

/** One test per scenario: every request ours sends equals upstream's, message for message. */
export function requestsEqualUpstream(names: readonly string[], ours: (name: string) => Promise<ChatMessage[][]>, theirs: (name: string) => ChatMessage[][]): void {
  for (const name of names) {
    it(`${name}: every request equals upstream's (${theirs(name).length} requests)`, async () => {
      const sent = await ours(name);
      const expected = theirs(name);
      expect(sent.length).toBe(expected.length);
      for (let i = 0; i < expected.length; i++) expect(sent[i], `request ${i + 1}`).toEqual(expected[i]);
    }, 60_000);
  }
}
