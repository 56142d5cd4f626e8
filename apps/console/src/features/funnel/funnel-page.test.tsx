/**
 * The funnel's money (issue 41, item 4; decision 0243): what was collected from the window's links after refunds —
 * deposits and instalments, the Payments screen's "kept" for the same sales — and the plans' own part.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FunnelResult } from '../../shared/api/contract';
import { json, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { FunnelPage } from './funnel-page';

const api = setupApiStub();
const funnel: FunnelResult = {
  from: '2026-11-01',
  to: '2026-11-30',
  timeZone: 'America/Chicago',
  stages: [{ key: 'created', count: 2, conversion: null, medianSeconds: null }],
  byCoordinator: [],
  stalled: [],
  planMoney: {
    plans: 1,
    collected: { count: 1, amount: 150 },
    scheduled: { count: 0, amount: 0 },
    failed: { count: 0, amount: 0 },
  },
  collected: { count: 3, amount: 750 },
};

describe('the funnel', () => {
  it("says what was collected from the links after refunds, and the plans' part", async () => {
    api.on('GET /api/admin/funnel', json(funnel));
    await renderScreen(<FunnelPage />);
    expect(await screen.findByTestId('funnel-collected')).toHaveTextContent(
      'Collected from these links, after refunds: $750.00 (3)',
    );
    expect(screen.getByTestId('funnel-plan-money')).toHaveTextContent(/Collected\s*\$150\.00 \(1\)/);
  });

  it('in Spanish', async () => {
    api.on('GET /api/admin/funnel', json(funnel));
    await renderScreen(<FunnelPage />, { lng: 'es' });
    expect(await screen.findByTestId('funnel-collected')).toHaveTextContent(
      'Cobrado de estos enlaces, tras los reembolsos: $750.00 (3)',
    );
  });
});
