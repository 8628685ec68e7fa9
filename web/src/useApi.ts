/** Loads one API resource for a page, with loading and error states and a `reload`. */
import { useCallback, useEffect, useState } from "react";
import { api, takePrefetched } from "./api";

export interface Loaded<T> {
  /** The answer for the current `path` only: never a previous path's (a previous page of a list). */
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  reload(): void;
}

interface State<T> {
  readonly key?: string;
  readonly data?: T;
  readonly error?: unknown;
}

export function useApi<T>(path: string | undefined): Loaded<T> {
  const [state, setState] = useState<State<T>>({});
  const [round, setRound] = useState(0);
  const key = path === undefined ? undefined : `${round}:${path}`;
  useEffect(() => {
    if (path === undefined || key === undefined) return;
    const abort = new AbortController();
    (takePrefetched<T>(path) ?? api<T>("GET", path, { signal: abort.signal })).then(
      (data) => setState({ key, data }),
      (error: unknown) => {
        if ((error as Error).name !== "AbortError") setState({ key, error });
      },
    );
    return () => abort.abort();
  }, [path, key]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  const settled = state.key === key;
  // A reload keeps showing what it replaces; a new path does not.
  const samePath = state.key?.slice(state.key.indexOf(":") + 1) === path;
  return {
    data: settled || samePath ? state.data : undefined,
    error: settled ? state.error : undefined,
    loading: path !== undefined && !settled,
    reload,
  };
}
