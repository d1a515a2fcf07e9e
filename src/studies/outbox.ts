/**
 * Results on their way to the researcher. Each finished episode is queued in
 * IndexedDB (one item per target: the study's HTTP endpoint, JATOS) and sent until
 * the target acknowledges it, with retries and exponential backoff; a reload picks
 * the queue up again. An acknowledged item is marked sent and never sent again; only
 * one tab sends at a time (Web Locks). HTTP requests carry `Idempotency-Key: <episode
 * id>` so an endpoint can also drop a repeat that follows a lost acknowledgement.
 */
import { enqueueOutbox, listOutbox, updateOutbox } from './studyDb.ts';
import type { JatosApi } from './jatos.ts';
import type { OutboxItem } from './types.ts';

export interface OutboxStatus {
  pending: number;
  sent: number;
  lastError: string | null;
}

export interface OutboxOptions {
  retryMs: number;
  maxRetryMs?: number;
  jatos?: () => JatosApi | null;
}

export class OutboxSender {
  status: OutboxStatus = { pending: 0, sent: 0, lastError: null };
  onStatus: ((s: OutboxStatus) => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly nextAt = new Map<string, number>();
  private stopped = false;

  constructor(private readonly options: OutboxOptions) {}

  /** Queue an episode's line for a target (once: an item already queued or sent is left as it is), then send. */
  async add(item: Omit<OutboxItem, 'key' | 'attempts' | 'createdAt'>): Promise<void> {
    await enqueueOutbox({ ...item, key: `${item.target}|${item.episodeId}`, attempts: 0, createdAt: new Date().toISOString() });
    this.kick();
  }

  /** Send whatever is unsent now (a pass already running picks the new items up). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.withLock(() => this.pass()).finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /**
   * Resolves once nothing is unsent (true), or false after `timeoutMs`, or as soon as every unsent
   * item has been tried `giveUpAfter` times (the target stays down: the participant should be told).
   * Sending goes on either way until stop().
   */
  async drained(timeoutMs: number, giveUpAfter = Infinity): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      await this.running;
      const unsent = (await listOutbox()).filter((i) => !i.sentAt && this.canSend(i));
      if (unsent.length === 0) return true;
      if (this.stopped || Date.now() >= until || unsent.every((i) => i.attempts >= giveUpAfter)) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Try every unsent item now, without waiting for its backoff (a person pressed "Try again"). */
  retryNow(): void {
    this.nextAt.clear();
    if (this.timer) clearTimeout(this.timer);
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private canSend(item: OutboxItem): boolean {
    return item.target === 'http' || this.options.jatos?.() != null;
  }

  private async withLock(body: () => Promise<void>): Promise<void> {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (locks) await locks.request('agentplay-outbox', body);
    else await body();
  }

  private async pass(): Promise<void> {
    const items = await listOutbox();
    const unsent = items.filter((i) => !i.sentAt && this.canSend(i));
    let wait = Infinity;
    for (const item of unsent) {
      if (this.stopped) return;
      const due = this.nextAt.get(item.key) ?? 0;
      if (Date.now() < due) {
        wait = Math.min(wait, due - Date.now());
        continue;
      }
      try {
        await this.send(item);
        await updateOutbox(item.key, (i) => ({ ...i, sentAt: new Date().toISOString(), attempts: i.attempts + 1, lastError: undefined }));
        this.nextAt.delete(item.key);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const attempts = item.attempts + 1;
        await updateOutbox(item.key, (i) => ({ ...i, attempts: i.attempts + 1, lastError: message }));
        item.attempts = attempts;
        const delay = Math.min(this.options.maxRetryMs ?? 60_000, this.options.retryMs * 2 ** Math.max(0, attempts - 1));
        this.nextAt.set(item.key, Date.now() + delay);
        wait = Math.min(wait, delay);
        this.status.lastError = `${item.target}: ${message}`;
      }
    }
    const after = await listOutbox();
    this.status = { pending: after.filter((i) => !i.sentAt).length, sent: after.filter((i) => i.sentAt).length, lastError: after.some((i) => !i.sentAt && i.lastError) ? this.status.lastError : null };
    this.onStatus?.(this.status);
    if (wait !== Infinity && !this.stopped) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.kick(), wait);
    }
  }

  private async send(item: OutboxItem): Promise<void> {
    if (item.target === 'jatos') {
      const api = this.options.jatos?.();
      if (!api) throw new Error('JATOS is not loaded');
      await api.appendResultData(item.body);
      return;
    }
    if (!item.url) throw new Error('no endpoint URL');
    const response = await fetch(item.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson', 'Idempotency-Key': item.episodeId },
      body: item.body,
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  }
}
