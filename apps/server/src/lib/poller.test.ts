import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPoller } from './poller.js';

const log = () => ({ error: vi.fn() });
afterEach(() => vi.useRealTimers());

describe('startPoller', () => {
  it('passes at once, again an interval after each pass ends, and keeps going after a failed pass', async () => {
    vi.useFakeTimers();
    const l = log();
    let n = 0;
    const pass = vi.fn(async () => {
      n++;
      if (n === 2) throw new Error('database gone');
    });
    const p = startPoller({ name: 'outbox worker', pass, intervalMs: 1000, log: l });
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(2);
    expect(l.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'outbox worker pass failed');
    await vi.advanceTimersByTimeAsync(1000);
    expect(pass).toHaveBeenCalledTimes(3);
    await p.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(pass).toHaveBeenCalledTimes(3);
  });

  it('stop waits for the pass that is running, and none starts after it', async () => {
    let finish!: () => void;
    let passes = 0;
    const p = startPoller({
      name: 'reconciliation',
      pass: () => {
        passes++;
        return new Promise<void>((r) => (finish = r));
      },
      intervalMs: 1,
      log: log(),
    });
    let stopped = false;
    const stopping = p.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await new Promise((r) => setTimeout(r, 20));
    expect(passes).toBe(1);
  });

  it('a long pass (a drain) learns that the poller is stopping and ends early', async () => {
    let rounds = 0;
    const p = startPoller({
      name: 'outbox worker',
      pass: async ({ stopping }) => {
        while (!stopping()) {
          rounds++;
          await new Promise((r) => setTimeout(r, 1));
        }
      },
      intervalMs: 1000,
      log: log(),
    });
    await new Promise((r) => setTimeout(r, 20));
    await p.stop();
    expect(rounds).toBeGreaterThan(0);
  });

  it('with delayFirst, the first pass comes one interval after the start', async () => {
    vi.useFakeTimers();
    const pass = vi.fn(async () => {});
    const p = startPoller({
      name: 'tamper check',
      pass,
      intervalMs: 60_000,
      log: log(),
      delayFirst: true,
      unref: true,
    });
    expect(pass).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pass).toHaveBeenCalledTimes(1);
    await p.stop();
  });
});
