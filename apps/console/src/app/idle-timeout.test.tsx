import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../shared/i18n';
import { IdleTimeout } from './idle-timeout';

const MIN = 60_000;
let clock = 0;
const now = () => clock;
/** Moves the person's clock and lets the once-a-second check run. */
const wait = (ms: number) =>
  act(() => {
    clock += ms;
    vi.advanceTimersByTime(1000);
  });

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => {
  clock = 1_000_000;
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

function setUp() {
  const p = { onActive: vi.fn(), onStay: vi.fn(), onTimeout: vi.fn() };
  render(<IdleTimeout idleMinutes={30} now={now} {...p} />);
  return p;
}

describe('idle time-out (30 minutes, warned two minutes before)', () => {
  it('warns at 28 minutes without activity, then signs out at 30', async () => {
    const p = setUp();
    await wait(27 * MIN);
    expect(screen.queryByText('Still there?')).toBeNull();
    await wait(1 * MIN + 1000);
    expect(screen.getByText('Still there?')).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent('signed out in 1:59');
    expect(p.onTimeout).not.toHaveBeenCalled();
    await wait(2 * MIN);
    expect(p.onTimeout).toHaveBeenCalledTimes(1);
  });

  it('a key press or click restarts the 30 minutes; "Stay signed in" dismisses the warning', async () => {
    const p = setUp();
    await wait(20 * MIN);
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' })));
    expect(p.onActive).toHaveBeenCalledTimes(1); // more than 5 quiet minutes: the server's session is kept alive
    await wait(20 * MIN);
    expect(screen.queryByText('Still there?')).toBeNull();
    await wait(9 * MIN);
    expect(screen.getByText('Still there?')).toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'Stay signed in' }).click());
    expect(p.onStay).toHaveBeenCalledTimes(1);
    await wait(20 * MIN);
    expect(p.onTimeout).not.toHaveBeenCalled();
  });
});
