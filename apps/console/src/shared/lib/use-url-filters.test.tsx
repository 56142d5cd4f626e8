import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUrlFilters } from './use-url-filters';

/** The hook on a page at `url`; returns its update and the address as it is now. */
function mount(url: string) {
  let update!: ReturnType<typeof useUrlFilters>[1];
  function Page() {
    update = useUrlFilters()[1];
    return null;
  }
  const router = createMemoryRouter([{ path: '/payments', element: <Page /> }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  const address = () => router.state.location.search;
  return { update: (patch: Record<string, string | null>) => act(() => update(patch)), address, router };
}

describe('filters in the address', () => {
  it('a filter change goes back to the first page; a page change keeps the filters', async () => {
    const page = mount('/payments?status=approved&page=3');
    await page.update({ from: '2026-11-01' });
    expect(page.address()).toBe('?status=approved&from=2026-11-01');
    await page.update({ page: '2' });
    expect(page.address()).toBe('?status=approved&from=2026-11-01&page=2');
  });

  it('an empty value clears the filter, and no history entry is added', async () => {
    const page = mount('/payments?status=approved&q=garcia');
    await page.update({ status: '', q: null });
    expect(page.address()).toBe('');
    expect(page.router.state.historyAction).toBe('REPLACE');
  });
});
