import { useQuery } from '@tanstack/react-query';
import { call } from '../../shared/api/client';
import { consoleEndpoints } from '../../shared/api/contract';

/** The plan instalments due in the next `days` days (an audited read: fetched when the screen opens, not polled). */
export function useUpcomingCharges(days: number) {
  return useQuery({
    queryKey: ['plans', 'upcoming', days],
    queryFn: ({ signal }) => call(consoleEndpoints.upcomingCharges, { query: { days }, signal }),
  });
}
