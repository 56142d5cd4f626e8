import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** The console's TanStack Query client (the app makes one; component tests make one per test). */
export function createQueryClient() {
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
