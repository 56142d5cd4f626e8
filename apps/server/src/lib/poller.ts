/**
 * A background pass repeated until stopped (the outbox, webhooks, reconciliation, reminders, the tamper check): a
 * failed pass is logged and the next one still comes; the next pass is timed from the end of the last, so passes
 * never overlap; `stop()` cancels the next pass and waits for the one running.
 */
export interface Poller {
  stop(): Promise<void>;
}

export function startPoller(o: {
  /** Named in the log line of a failed pass. */
  name: string;
  /** `stopping()` tells a long pass (a drain) to end early. */
  pass: (o: { stopping: () => boolean }) => Promise<unknown>;
  intervalMs: number;
  log: { error: (obj: object, msg: string) => void };
  /** Wait one interval before the first pass (default: the first pass starts now). */
  delayFirst?: boolean;
  /** Do not keep the process alive for the timer alone. */
  unref?: boolean;
}): Poller {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const schedule = () => {
    timer = setTimeout(run, o.intervalMs);
    if (o.unref) timer.unref();
  };
  const tick = async () => {
    if (stopped) return;
    try {
      await o.pass({ stopping: () => stopped });
    } catch (err) {
      o.log.error({ err }, `${o.name} pass failed`);
    }
    if (!stopped) schedule();
  };
  const run = () => {
    current = tick();
  };
  if (o.delayFirst) schedule();
  else run();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
