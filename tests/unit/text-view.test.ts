/**
 * The text view shows exactly what a model is sent. For every environment in the catalogue,
 * a model driver plays several steps with a fake model; at each step the messages the model
 * received must equal what the text view renders at that point (modelView of conversationFor, as
 * Play.svelte and Replay.svelte compute it): roles, system messages, windowing and truncation.
 */
import { describe, expect, it } from 'vitest';
import { entries, loadEnv } from '../../envs/index.ts';
import { startEpisode, whenIdle } from '../../envs/core/runner.ts';
import { transcriptOf } from '../../envs/core/episode.ts';
import { makePolicy } from '../../envs/core/policies.ts';
import { modelView, type ChatMessage } from '../../envs/core/prompts/index.ts';
import { conversationFor } from '../../suites/index.ts';
import { runModelDriver } from '../../runtime/drivers/index.ts';
import type { ChatClient, ChatRequest, ChatResult } from '../../runtime/models/types.ts';

const STEPS = 6;

describe('the text view is what the model is sent', () => {
  for (const entry of entries()) {
    it(`${entry.id}: the first ${STEPS} steps`, async () => {
      const env = await loadEnv(entry.id);
      const task = env.tasks()[0];
      const actor = startEpisode(env, task, { seed: 3 });
      await whenIdle(actor);
      // A policy gives the model's answers, so the episode goes on for several steps.
      const policy = makePolicy(env.oracleAction ? 'oracle' : 'random', env, task, 3);
      const seen: { messages: ChatMessage[]; shown: ReturnType<typeof modelView> }[][] = [];
      let call = 0;
      const client: ChatClient = {
        kind: 'fake',
        model: 'parity',
        async complete(request: ChatRequest): Promise<ChatResult> {
          const snap = actor.getSnapshot().context;
          const shown = modelView(conversationFor(env, task, transcriptOf(snap)));
          const t = snap.history.length;
          (seen[t] ??= []).push({ messages: request.messages.map((m) => ({ ...m })), shown });
          const plan = conversationFor(env, task, transcriptOf(snap));
          const last = seen[t].length === plan.calls;
          call++;
          return { text: last ? (policy(snap.state) ?? 'check valid actions') : 'Let me think.', latencyMs: 0, finishReason: 'stop' };
        },
      };
      await runModelDriver({ actor, env, task, client, maxSteps: STEPS });
      const steps = seen.filter(Boolean);
      expect(steps.length).toBeGreaterThanOrEqual(Math.min(STEPS, actor.getSnapshot().context.history.length));
      expect(call).toBeGreaterThan(0);
      for (const calls of steps) {
        // The first request is the text view's messages, message for message.
        expect(calls[0].messages).toEqual(calls[0].shown.messages);
        // Each later request ends with the question the text view shows as a follow-up.
        expect(calls.slice(1).map((c) => c.messages.at(-1))).toEqual(calls[0].shown.followUps);
      }
      if (actor.getSnapshot().status === 'active') actor.send({ type: 'GIVE_UP' });
    }, 60_000);
  }
});
