import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nProvider } from '../i18n';
import { createMemoryHistory, RouterProvider } from '../lib/router';
import { makeStore } from '../store/store';
import { createTestI18n } from '../test/i18n';
import { ProgressBar } from './progress-bar';

const steps = [4, 4, 2, 1, 1, 1].map((status, i) => ({
  linkStepId: i + 1,
  routePath: [
    '/patientinfo',
    '/patientinvoicedetail',
    '/patientiddocs',
    '/patientcontract',
    '/paymentauthorization',
    '/confirmation',
  ][i]!,
  documentUrl: null,
  linkStepStatusId: status,
}));

describe('ProgressBar (spec screen 9)', () => {
  it('draws one circle per step numbered from 1; status 4 is completed, every other status active', async () => {
    const { store } = makeStore({ passphrase: 'k' });
    const i18n = await createTestI18n('en');
    render(
      <Provider store={store}>
        <I18nProvider i18n={i18n}>
          <RouterProvider history={createMemoryHistory('/patientiddocs')}>
            <ProgressBar steps={steps} />
          </RouterProvider>
        </I18nProvider>
      </Provider>,
    );
    const nav = screen.getByRole('navigation', { name: 'Your progress' });
    const items = within(nav).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.progress-circle')?.textContent)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
    expect(items.map((li) => li.classList.contains('is-completed'))).toEqual([true, true, false, false, false, false]);
    expect(items.map((li) => li.classList.contains('is-active'))).toEqual([false, false, true, true, true, true]);
    expect(items[2]).toHaveAttribute('aria-current', 'step');
    // Named, with done / current / to do (issue 16, item 10c).
    expect(items[0]).toHaveTextContent('Step 1 of 6, patient information: completed');
    expect(items[2]).toHaveTextContent('Step 3 of 6, patient ID: current step');
    expect(items[3]).toHaveTextContent('Step 4 of 6, contract: not done yet');
    expect(items[4]).toHaveTextContent('Step 5 of 6, payment: not done yet');
  });
});
