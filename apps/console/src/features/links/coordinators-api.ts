import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api/client';

export interface Coordinator {
  id: string;
  name: string;
  email: string;
}

/** The people a link can be "created by" (GET /api/admin/coordinators): names for the board's filter. */
export function useCoordinators() {
  return useQuery({
    queryKey: ['coordinators'],
    queryFn: ({ signal }) => api.get<{ coordinators: Coordinator[] }>('/api/admin/coordinators', { signal }),
    staleTime: 5 * 60_000,
  });
}
