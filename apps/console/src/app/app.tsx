import { useEffect, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { onUnauthorized } from '../shared/api/client';
import { createQueryClient } from '../shared/api/query-client';
import { SESSION_QUERY_KEY } from '../shared/session/session-api';
import { createConsoleRouter } from './router';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createConsoleRouter);
  useEffect(
    // Any 401 means the session ended (idle time-out on the server, signed out everywhere): back to sign-in.
    () =>
      onUnauthorized(() => {
        if (queryClient.getQueryData(SESSION_QUERY_KEY)) {
          queryClient.clear();
          void router.navigate(`/sign-in?reason=expired`, { replace: true });
        }
      }),
    [queryClient, router],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
