/**
 * The patient app's router API (decision 0173): wouter matches the routes (<Switch>, <Route>), and this module keeps
 * the few things the pages need from a router on top of one history object, the same in the browser and in tests:
 *   useNavigate()  → navigate(to, { replace?, state? }): to is a path ('/auth?id=…') or { pathname?, search?, hash? };
 *   useLocation()  → { pathname, search ('?…' or ''), hash, state, key } (key changes with every navigation);
 *   <Navigate to replace? state? />, useSearchParams() → [URLSearchParams];
 *   usePopBlocker(when) → back/forward do nothing while set (useNeutralizeBack builds on it);
 *   <ScrollToTop /> → a new page starts at the top.
 * createBrowserHistory() serves the app (window.history, the entry's state kept as { usr, key }); createMemoryHistory()
 * serves unit tests, with back() for the browser's back button.
 */
import {
  createContext,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { Router } from 'wouter';

export { Route, Switch } from 'wouter';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

export type To = string | { pathname?: string; search?: string; hash?: string };
export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}
/** Resolves once the location has changed (at once: there are no loaders to wait for). */
export type NavigateFunction = (to: To, options?: NavigateOptions) => Promise<void>;

export interface AppHistory {
  /** The current entry: the same object until the location changes. */
  location(): Location;
  push(path: string, state?: unknown): void;
  replace(path: string, state?: unknown): void;
  /** The browser's back button. */
  back(): void;
  subscribe(listener: () => void): () => void;
  /** Until the returned function is called, a back/forward (POP) navigation is undone: the current entry is pushed again. */
  block(): () => void;
}

const newKey = () => Math.random().toString(36).slice(2, 10);

function parsePath(path: string): Pick<Location, 'pathname' | 'search' | 'hash'> {
  const hashAt = path.indexOf('#');
  const hash = hashAt >= 0 ? path.slice(hashAt) : '';
  const rest = hashAt >= 0 ? path.slice(0, hashAt) : path;
  const searchAt = rest.indexOf('?');
  const search = searchAt >= 0 ? rest.slice(searchAt) : '';
  const pathname = (searchAt >= 0 ? rest.slice(0, searchAt) : rest) || '/';
  return { pathname, search: search === '?' ? '' : search, hash: hash === '#' ? '' : hash };
}

const pathOf = (l: Pick<Location, 'pathname' | 'search' | 'hash'>) => l.pathname + l.search + l.hash;

interface EntryState {
  usr: unknown;
  key: string;
}

export function createBrowserHistory(win: Window = window): AppHistory {
  const ours = (s: unknown): s is EntryState => typeof s === 'object' && s !== null && 'key' in s;
  // The entry the app was opened on becomes ours too; only an in-page link (#main) makes entries that are not.
  if (!ours(win.history.state)) win.history.replaceState({ usr: null, key: 'default' } satisfies EntryState, '');
  const read = (): Location => {
    const s: unknown = win.history.state;
    const { pathname, search, hash } = win.location;
    return { pathname, search, hash, state: ours(s) ? s.usr : null, key: ours(s) ? s.key : 'default' };
  };
  let current = read();
  let blockers = 0;
  const listeners = new Set<() => void>();
  const changed = () => {
    current = read();
    listeners.forEach((l) => l());
  };
  win.addEventListener('popstate', () => {
    if (blockers > 0 && ours(win.history.state)) {
      // Back or forward: the browser already moved (to the same page: useNeutralizeBack keeps such an entry behind
      // it). Push the page's entry again, before anything renders. An in-page link (#main) goes through.
      const entry: EntryState = { usr: current.state, key: current.key };
      win.history.pushState(entry, '', pathOf(current));
      return;
    }
    changed();
  });
  const write = (method: 'pushState' | 'replaceState') => (path: string, state?: unknown) => {
    const entry: EntryState = { usr: state ?? null, key: newKey() };
    win.history[method](entry, '', path);
    changed();
  };
  return {
    location: () => current,
    push: write('pushState'),
    replace: write('replaceState'),
    back: () => win.history.back(),
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    block: () => {
      blockers++;
      let active = true;
      return () => {
        if (active) blockers--;
        active = false;
      };
    },
  };
}

export function createMemoryHistory(initial: string | { path: string; state?: unknown } = '/'): AppHistory {
  const first = typeof initial === 'string' ? { path: initial, state: null } : initial;
  const entries: Location[] = [{ ...parsePath(first.path), state: first.state ?? null, key: 'default' }];
  let index = 0;
  let blockers = 0;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  const entry = (path: string, state: unknown): Location => ({
    ...parsePath(path),
    state: state ?? null,
    key: newKey(),
  });
  return {
    location: () => entries[index]!,
    push: (path, state) => {
      entries.splice(index + 1, entries.length, entry(path, state));
      index++;
      changed();
    },
    replace: (path, state) => {
      entries[index] = entry(path, state);
      changed();
    },
    back: () => {
      if (index === 0) return;
      if (blockers > 0) {
        // As in the browser: back, then the current entry pushed again; the page never sees a change.
        entries.splice(index + 1);
        return;
      }
      index--;
      changed();
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    block: () => {
      blockers++;
      let active = true;
      return () => {
        if (active) blockers--;
        active = false;
      };
    },
  };
}

const HistoryContext = createContext<AppHistory | null>(null);

/** The wouter location hooks of one history (stable, so wouter's router object stays the same). */
function wouterHooks(history: AppHistory) {
  const navigate = (to: string, opts?: NavigateOptions) =>
    opts?.replace ? history.replace(to, opts.state) : history.push(to, opts?.state);
  const useSearch = () => useSyncExternalStore(history.subscribe, () => history.location().search);
  const usePathname = () => useSyncExternalStore(history.subscribe, () => history.location().pathname);
  const useWouterLocation = (): [string, typeof navigate] => [usePathname(), navigate];
  return { hook: useWouterLocation, searchHook: useSearch };
}

export function RouterProvider(props: { history: AppHistory; children: ReactNode }) {
  const { history } = props;
  const hooks = useMemo(() => wouterHooks(history), [history]);
  return (
    <HistoryContext.Provider value={history}>
      <Router hook={hooks.hook} searchHook={hooks.searchHook}>
        {props.children}
      </Router>
    </HistoryContext.Provider>
  );
}

export function useHistory(): AppHistory {
  const history = useContext(HistoryContext);
  if (!history) throw new Error('useHistory() outside <RouterProvider>');
  return history;
}

export function useLocation(): Location {
  const history = useHistory();
  return useSyncExternalStore(history.subscribe, history.location);
}

export function useNavigate(): NavigateFunction {
  const history = useHistory();
  return useCallback(
    (to, options = {}) => {
      const current = history.location();
      const path =
        typeof to === 'string' ? to : (to.pathname ?? current.pathname) + (to.search ?? '') + (to.hash ?? '');
      if (options.replace) history.replace(path, options.state);
      else history.push(path, options.state);
      return Promise.resolve();
    },
    [history],
  );
}

/**
 * Navigates when rendered, once per mount with the first render's props (a second run of the effect, as under
 * StrictMode, finds the location already moved on).
 */
export function Navigate(props: { to: To; replace?: boolean; state?: unknown }) {
  const history = useHistory();
  const navigate = useNavigate();
  const { key } = useLocation();
  useLayoutEffect(() => {
    if (history.location().key !== key) return;
    void navigate(props.to, { replace: props.replace, state: props.state });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

export function useSearchParams(): readonly [URLSearchParams] {
  const { search } = useLocation();
  return useMemo(() => [new URLSearchParams(search)] as const, [search]);
}

/** While `when`, the browser's back and forward buttons do nothing (the URL and the page stay). */
export function usePopBlocker(when: boolean) {
  const history = useHistory();
  useLayoutEffect(() => (when ? history.block() : undefined), [history, when]);
}

/** A new page starts at the top (the back and forward buttons are neutralised where it matters, decision 0024). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    if (window.scrollY !== 0 || window.scrollX !== 0) window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
