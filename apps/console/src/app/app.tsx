import { useEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ApiError, onUnauthorized } from '../shared/api/client';
import { SESSION_QUERY_KEY } from '../shared/session/session-api';
import { createConsoleRouter } from './router';

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        // A 4xx will not get better by asking again; a network blip might.
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
        refetchOnWindowFocus: true,
      },
    },
  });
}

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
