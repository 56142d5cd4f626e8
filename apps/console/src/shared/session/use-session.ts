import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { can, type Permission } from './permissions';
import { fetchSession, SESSION_QUERY_KEY, type SessionInfo } from './session-api';

/** The signed-in staff member (null when signed out). Loaded once; 401 anywhere resets it (see app/providers). */
export function useSession() {
  return useQuery<SessionInfo | null>({
    queryKey: SESSION_QUERY_KEY,
    queryFn: async () => {
      try {
        return await fetchSession();
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: 5 * 60_000,
    retry: 1,
  });
}

/** For screens inside the signed-in frame: the session is loaded there. */
export function useCan(): (permission: Permission) => boolean {
  const { data } = useSession();
  return (permission) => can(data?.user.role, permission);
}
