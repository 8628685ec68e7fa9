/** Loads one API resource for a page, with loading and error states and a `reload`. */
import { useCallback, useEffect, useRef, useState } from "react";
import { takePrefetched } from "./api";

export interface Loaded<T> {
  /** The answer for the current `key` only: never a previous key's (a previous page of a list). */
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

/**
 * `load` fetches the resource (a typed `client.GET`); `key` names what it fetches (its path and query),
 * and a new key loads again. `undefined` loads nothing. A prefetched answer (main.tsx) is taken by its path.
 */
export function useApi<T>(key: string | undefined, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<State<T>>({});
  const [round, setRound] = useState(0);
  // The loader of the latest render: a key names what it loads, so a new loader alone loads nothing new.
  const loader = useRef(load);
  loader.current = load;
  const roundKey = key === undefined ? undefined : `${round}:${key}`;
  useEffect(() => {
    if (key === undefined || roundKey === undefined) return;
    const abort = new AbortController();
    ((takePrefetched(key) as Promise<T> | undefined) ?? loader.current(abort.signal)).then(
      (data) => setState({ key: roundKey, data }),
      (error: unknown) => {
        if ((error as Error).name !== "AbortError") setState({ key: roundKey, error });
      },
    );
    return () => abort.abort();
  }, [key, roundKey]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  const settled = state.key === roundKey;
  // A reload keeps showing what it replaces; a new key does not.
  const sameKey = state.key?.slice(state.key.indexOf(":") + 1) === key;
  return {
    data: settled || sameKey ? state.data : undefined,
    error: settled ? state.error : undefined,
    loading: key !== undefined && !settled,
    reload,
  };
}
