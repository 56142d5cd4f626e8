import { useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { useRef } from 'react';
import { call } from '../../shared/api/client';
import { consoleEndpoints, type BoardQuery, type BoardResult } from '../../shared/api/contract';

export const LIVE_INTERVAL_MS = 5_000;

export function useBoard(query: BoardQuery) {
  return useQuery({
    queryKey: ['board', query],
    queryFn: ({ signal }) => call(consoleEndpoints.board, { query, signal, background: true }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Live updates for the board and link pages: asks the cheap, unaudited /board/changes every 5 s (a background
 * request: it does not keep the session alive) and refetches the board and the changed links' pages only when
 * something moved. The first cursor comes from a board answer already in the cache, else from a one-row board read.
 */
export function useLiveUpdates() {
  const queryClient = useQueryClient();
  const since = useRef<string | null>(null);
  useQuery({
    queryKey: ['live-updates'],
    refetchInterval: LIVE_INTERVAL_MS,
    refetchIntervalInBackground: false,
    gcTime: 0,
    staleTime: 0,
    queryFn: async () => {
      if (!since.current) {
        const cached = queryClient
          .getQueriesData<BoardResult>({ queryKey: ['board'] })
          .map(([, data]) => data?.cursor)
          .find(Boolean);
        since.current =
          cached ?? (await call(consoleEndpoints.board, { query: { limit: 1 }, background: true })).cursor;
        return { linkIds: [] as string[] };
      }
      const changes = await call(consoleEndpoints.boardChanges, {
        query: { since: since.current },
        background: true,
      });
      since.current = changes.cursor;
      if (changes.linkIds.length) {
        void queryClient.invalidateQueries({ queryKey: ['board'] });
        for (const id of changes.linkIds) void queryClient.invalidateQueries({ queryKey: ['link', id] });
      }
      return changes;
    },
  });
}
