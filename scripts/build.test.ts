import { describe, expect, it } from 'vitest';
import { productSteps, runSteps, type Step } from './build.js';

/** `npm run build` runs its parts in parallel (decision 0181): a failing part must still fail the build. */
const node = (code: string): string[] => [process.execPath, '-e', code];

describe('the parallel build', () => {
  it('runs each part after the parts it needs and the others at once, every line tagged with its part', async () => {
    const order: string[] = [];
    const lines: string[] = [];
    const steps: Step[] = [
      { name: 'slow', cmd: node("setTimeout(() => console.log('slow out'), 400)") },
      { name: 'fast', cmd: node("console.log('fast out'); console.error('fast err')") },
      {
        name: 'after-fast',
        after: ['fast'],
        fn: async () => {
          order.push('after-fast');
          return 'message';
        },
      },
      {
        name: 'after-both',
        after: ['slow', 'after-fast'],
        fn: async () => {
          order.push('after-both');
        },
      },
    ];
    const started = performance.now();
    const r = await runSteps(steps, (l) => lines.push(l));
    expect(r.ok).toBe(true);
    expect(order).toEqual(['after-fast', 'after-both']);
    expect(Object.keys(r.ms).sort()).toEqual(['after-both', 'after-fast', 'fast', 'slow']);
    // In parallel: the fast part and its follower did not wait for the slow one.
    expect(lines.findIndex((l) => l.includes('message'))).toBeLessThan(lines.findIndex((l) => l.includes('slow out')));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(lines).toContain('[fast]       fast out');
    expect(lines).toContain('[fast]       fast err');
    expect(lines).toContain('[after-fast] message');
  });

  it('fails when one part fails: the running parts are stopped and the parts after it never start', async () => {
    let started = false;
    const lines: string[] = [];
    const t0 = performance.now();
    const r = await runSteps(
      [
        { name: 'long', cmd: node('setTimeout(() => {}, 60_000)') },
        { name: 'broken', cmd: node("console.error('something went wrong'); process.exit(3)") },
        {
          name: 'next',
          after: ['broken'],
          fn: async () => {
            started = true;
          },
        },
      ],
      (l) => lines.push(l),
    );
    expect(r).toMatchObject({ ok: false, failed: 'broken' });
    expect(started).toBe(false);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(lines).toContain('[broken] something went wrong');
    expect(lines).toContain('[broken] FAILED: exit code 3');
    expect(lines).toContain('[long]   stopped');
  });

  it('fails when an in-process part throws, and on a command that cannot start', async () => {
    const threw = await runSteps(
      [
        {
          name: 'throws',
          fn: async () => {
            throw new Error('no dist');
          },
        },
      ],
      () => {},
    );
    expect(threw).toMatchObject({ ok: false, failed: 'throws' });
    const missing = await runSteps([{ name: 'missing', cmd: ['/nonexistent/binary'] }], () => {});
    expect(missing).toMatchObject({ ok: false, failed: 'missing' });
  });

  it('builds the patient app, the console, the server and the database template; inventory before compression', () => {
    const steps = productSteps();
    expect(steps.map((s) => s.name).sort()).toEqual(
      ['console', 'console:compress', 'database', 'server', 'web', 'web:compress', 'web:inventory'].sort(),
    );
    expect(steps.find((s) => s.name === 'web:compress')?.after).toEqual(['web:inventory']);
    expect(steps.find((s) => s.name === 'web:inventory')?.after).toEqual(['web']);
    expect(steps.find((s) => s.name === 'console:compress')?.after).toEqual(['console']);
  });
});
