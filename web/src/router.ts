/**
 * A small history router: the console has eight routes and no nested layouts, which does not justify a
 * routing library in the bundle. Cloudscape's links report plain left clicks through `onFollow`; those are
 * turned into `navigate`, anything else (new tab, copy link) keeps the real href.
 */
import { useMemo, useSyncExternalStore } from "react";

const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};
window.addEventListener("popstate", notify);

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  notify();
}

const snapshot = () => `${location.pathname}${location.search}`;

export interface Location {
  readonly pathname: string;
  readonly search: URLSearchParams;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current path and query; re-renders on every navigation, and is the same object until one. */
export function useLocation(): Location {
  const current = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => {
    const url = new URL(current, location.origin);
    return { pathname: url.pathname, search: url.searchParams };
  }, [current]);
}

/** For Cloudscape `onFollow` events: an internal link navigates in place. */
export function follow(event: CustomEvent<{ href?: string; external?: boolean }>): void {
  const href = event.detail.href;
  if (!href || event.detail.external) return;
  event.preventDefault();
  navigate(href);
}

/** `/institutions/:id` against `/institutions/01K…` → `{id: "01K…"}`, or undefined. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = pathname.replace(/\/+$/, "").split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? "";
    const g = got[i] ?? "";
    if (w.startsWith(":")) {
      if (g === "") return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}

/** A query string from the defined values, `?`-prefixed, or "" when none. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}
