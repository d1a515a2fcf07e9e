/**
 * An endpoint that echoes the API key in successful replies (issue 16 item 9: the key was
 * stored verbatim, 150 times in IndexedDB and the export): the key reaches neither the store,
 * nor the export, nor the CLI's trajectory file and output; where it stood, "[redacted]" does.
 * The model here is a real OpenAI-compatible client talking to the local fake server.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hanoi } from '../../envs/hanoi/index.ts';
import { startEpisode, whenIdle } from '../../envs/core/runner.ts';
import { episodeHeader } from '../../runtime/records.ts';
import { createOpenAIClient } from '../../runtime/models/index.ts';
import { modelDriverInfo, runModelDriver } from '../../runtime/drivers/index.ts';
import { attachRecorder } from '../../src/lib/recorder.ts';
import { openStore } from '../../src/store/store.ts';
import { startFakeOpenAI } from '../support/fake-openai-server.ts';

const KEY = 'sk-echoed-SECRET-0123456789';
const H3 = hanoi.tasks().find((t) => t.id === 'hanoi-3')!;
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a key echoed by successful replies is never stored', () => {
  it('the browser path: recorded steps and the export hold "[redacted]", never the key', async () => {
    const { url, server } = await startFakeOpenAI();
    try {
      globalThis.indexedDB = new IDBFactory();
      const store = await openStore();
      const client = createOpenAIClient({ baseUrl: url, model: 'key-echo', apiKey: KEY, stream: false });
      const actor = startEpisode(hanoi, H3, { seed: 1 });
      const ready = await whenIdle(actor);
      const driver = modelDriverInfo(client, 'smartplay', {});
      const header = episodeHeader(ready.context, { id: 'echo-1', driver, view: 'text', appVersion: 'test', startedAt: new Date().toISOString() });
      const recorder = attachRecorder(actor, { store, header, episodeId: 'echo-1', currentView: () => 'text' });
      const result = await runModelDriver({ actor, env: hanoi, task: H3, client, maxSteps: 3 });
      expect(result.steps).toBe(3);
      await recorder.flushed();
      const record = await store.getEpisode('echo-1');
      expect(record?.steps).toHaveLength(3);
      // Each call's reply, the step's reply, the next prompt and the action taken were masked.
      expect(record!.steps[0].model!.calls[1].reply).toMatch(/\(sent with \[redacted\]\)$/);
      expect(record!.steps[0].model!.calls[1].messages.some((m) => m.role === 'assistant' && m.content.includes('[redacted]'))).toBe(true); // the first answer, asked on
      expect(JSON.stringify(record)).not.toContain(KEY);
      expect(await store.exportJsonl()).not.toContain(KEY);
      store.close();
    } finally {
      server.close();
    }
  });

  it('the CLI: neither the trajectory file nor the printed steps hold the key', async () => {
    const { url, server } = await startFakeOpenAI();
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'agentplay-echo-')), 'run.jsonl');
      const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'run', '--env', 'hanoi', '--task', 'hanoi-3', '--agent', 'openai', '--base-url', url, '--model', 'key-echo', '--out', file], {
          cwd: root,
          env: { ...process.env, OPENAI_API_KEY: KEY },
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.stdin.end();
        child.on('close', (code) => resolve({ code, out, err }));
      });
      expect(r.code, r.err).toBe(0);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('[redacted]');
      expect(text + r.out + r.err).not.toContain(KEY);
    } finally {
      server.close();
    }
  }, 60_000);
});
