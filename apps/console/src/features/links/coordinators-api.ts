import { useQuery } from '@tanstack/react-query';
import { call } from '../../shared/api/client';
import { consoleEndpoints, type Coordinator } from '../../shared/api/contract';

export type { Coordinator };

/** The people a link can be "created by" (GET /api/admin/coordinators): names for the board's filter. */
export function useCoordinators() {
  return useQuery({
    queryKey: ['coordinators'],
    queryFn: ({ signal }) => call(consoleEndpoints.coordinators, { signal }),
    staleTime: 5 * 60_000,
  });
}
