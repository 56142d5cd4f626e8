/** Renders a console screen as the app does: its query client, the console's i18n (en or es) and a router. */
import type { ReactElement } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../shared/api/query-client';
import i18n, { initI18n, type Language } from '../shared/i18n';

/** `at`: the address the screen opens at (path, query and #fragment), '/' when not given. */
export async function renderScreen(ui: ReactElement, opts: { lng?: Language; at?: string } = {}) {
  const lng = opts.lng ?? 'en';
  if (i18n.isInitialized) await i18n.changeLanguage(lng);
  else await initI18n(lng);
  const queryClient = createQueryClient();
  // No pause between keystrokes: the tests wait for what the user sees, not for time.
  const user = userEvent.setup({ delay: null });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[opts.at ?? '/']}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, user, queryClient };
}
