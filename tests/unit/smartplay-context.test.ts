/**
 * SmartPlay's context overflow (microsoft/SmartPlay @ 9dec5f2, examples/experiment.py: compose_ingame_prompt marks the history
 * message as the part an API may cut): cutting the oldest history lines as a pure
 * function, driven against a fake endpoint that rejects prompts over a size.
 */
import { describe, expect, it } from 'vitest';
import { CUT_STEPS, cutHistory, historyIndex, nextHistoryCut, smartplayPrompt, type HistoryCut } from '../../envs/core/prompts/smartplay.ts';
import type { ChatMessage } from '../../envs/core/smartplay.ts';

const MANUAL = 'A manual.\n\nList of all actions:\n1. Rock\n2. Paper\n3. Scissor';
const observations = Array.from({ length: 51 }, (_, i) => (i === 0 ? 'New round begins.' : `You chose Rock, and the opponent chose Paper. You lost and received score -1.\nNew round begins. (${i})`));
const prompt = (): ChatMessage[] => smartplayPrompt({ manual: MANUAL, observations, historyWindow: 50 }, 0);
const size = (messages: readonly ChatMessage[]): number => messages.reduce((n, m) => n + m.content.length, 0);

/** A fake endpoint: accepts a prompt of at most `limit` characters, else answers "context length exceeded". */
function endpoint(limit: number): (messages: readonly ChatMessage[]) => { ok: true } | { ok: false; error: string } {
  return (messages) => (size(messages) <= limit ? { ok: true } : { ok: false, error: "This model's maximum context length is exceeded" });
}

/** The driver's loop: send, and on "too long" cut more history, until it fits or nothing is left. */
function fit(messages: ChatMessage[], send: ReturnType<typeof endpoint>): { sent: ChatMessage[] | null; cut: HistoryCut | null; requests: number } {
  let current: HistoryCut | null = null;
  let requests = 0;
  for (;;) {
    const attempt = current?.messages ?? messages;
    requests++;
    if (send(attempt).ok) return { sent: attempt, cut: current, requests };
    const next = nextHistoryCut(messages, current?.droppedLines ?? 0);
    if (!next) return { sent: null, cut: current, requests };
    current = next;
  }
}

describe('SmartPlay context cut', () => {
  it('finds the history message (index 2 with a manual, as upstream marks it)', () => {
    expect(historyIndex(prompt())).toBe(2);
    expect(historyIndex(smartplayPrompt({ manual: MANUAL, observations: observations.slice(0, 1), historyWindow: 50 }, 0))).toBe(-1);
  });

  it('drops the oldest lines first, keeps the heading, never touches the other messages, and is pure', () => {
    const messages = prompt();
    const before = JSON.stringify(messages);
    const cut = cutHistory(messages, 3);
    expect(JSON.stringify(messages)).toBe(before);
    expect(cut.droppedLines).toBe(3);
    expect(cut.exhausted).toBe(false);
    const history = cut.messages[2].content;
    // Dropped: "Player Observation Step 0:", "New round begins.", "" — the body now starts at step 1.
    expect(history.split('\n').slice(0, 3)).toEqual(["Most recent 50 steps of the player's in-game observation:", '', 'Player Observation Step 1:']);
    expect(history.endsWith(messages[2].content.split('\n').at(-1)!)).toBe(true);
    expect(cut.messages.filter((_, i) => i !== 2)).toEqual(messages.filter((_, i) => i !== 2));
    expect(cutHistory(messages, 0).messages).toEqual(messages);
  });

  it('dropping every line leaves the history message out', () => {
    const messages = prompt();
    const all = cutHistory(messages, 1e9);
    expect(all.exhausted).toBe(true);
    expect(all.droppedLines).toBe(all.historyLines);
    expect(all.messages).toEqual(messages.filter((_, i) => i !== 2));
  });

  it('against an endpoint that rejects long prompts: cuts until the prompt fits, keeping the newest history', () => {
    const messages = prompt();
    const full = size(messages);
    const withoutHistory = size(messages.filter((_, i) => i !== 2));
    const limit = withoutHistory + Math.floor((full - withoutHistory) / 3);
    const { sent, cut, requests } = fit(messages, endpoint(limit));
    expect(sent).not.toBeNull();
    expect(size(sent!)).toBeLessThanOrEqual(limit);
    expect(cut!.droppedLines).toBeGreaterThan(0);
    expect(cut!.exhausted).toBe(false);
    expect(requests).toBeLessThanOrEqual(CUT_STEPS + 1); // an eighth of the history per retry, not one line
    // At most an eighth of the history more than needed was dropped.
    expect(size(cutHistory(messages, cut!.droppedLines - Math.ceil(cut!.historyLines / CUT_STEPS)).messages)).toBeGreaterThan(limit);
    // The newest step's observation is still there; the oldest is gone.
    expect(sent![2].content).toContain('Player Observation Step 49:');
    expect(sent![2].content).not.toContain('Player Observation Step 0:');
    expect(sent!.at(-2)!.content).toBe(`current step observation: ${observations[50]}`);
  });

  it('a prompt that fits is sent unchanged with no cut', () => {
    const messages = prompt();
    const { sent, cut, requests } = fit(messages, endpoint(size(messages)));
    expect(sent).toEqual(messages);
    expect(cut).toBeNull();
    expect(requests).toBe(1);
  });

  it('ends (null) only when even an empty history does not fit', () => {
    const messages = prompt();
    const withoutHistory = size(messages.filter((_, i) => i !== 2));
    const fits = fit(messages, endpoint(withoutHistory));
    expect(fits.sent).toEqual(messages.filter((_, i) => i !== 2));
    expect(fits.cut!.exhausted).toBe(true);
    const fails = fit(messages, endpoint(withoutHistory - 1));
    expect(fails.sent).toBeNull();
    expect(fails.cut!.exhausted).toBe(true);
    // With no history at all there is nothing to cut.
    expect(nextHistoryCut(smartplayPrompt({ manual: MANUAL, observations: observations.slice(0, 1), historyWindow: 50 }, 0), 0)).toBeNull();
  });
});
