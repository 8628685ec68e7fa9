/** What pages ask of the frame around them: breadcrumbs, the page title and flash messages. */
import type { BreadcrumbGroupProps } from "@cloudscape-design/components/breadcrumb-group";
import type { FlashbarProps } from "@cloudscape-design/components/flashbar";
import { createContext, useContext, useEffect } from "react";

export interface Shell {
  setCrumbs(items: readonly BreadcrumbGroupProps.Item[]): void;
  /**
   * Shows a dismissible message above the page it is about, and only there: leaving that page removes it.
   * The page is the current one, or `on`, the page an action is about to open (a created institution's).
   */
  flash(item: { type: FlashbarProps.Type; content: string; header?: string }, opts?: { on?: string }): void;
}

export const ShellContext = createContext<Shell>({ setCrumbs: () => {}, flash: () => {} });

export const useShell = (): Shell => useContext(ShellContext);

/** The page a path shows: `/` is the institutions list, and a trailing slash changes nothing. */
export function pageOf(path: string): string {
  const pathname = path.split(/[?#]/)[0]?.replace(/\/+$/, "") ?? "";
  return pathname === "" ? "/institutions" : pathname;
}

/** Sets the breadcrumbs and the document title for a page. */
export function usePage(title: string, crumbs: readonly BreadcrumbGroupProps.Item[]): void {
  const { setCrumbs } = useShell();
  const key = JSON.stringify(crumbs);
  useEffect(() => {
    document.title = `${title} · Institution Admin`;
    setCrumbs(JSON.parse(key) as BreadcrumbGroupProps.Item[]);
  }, [title, key, setCrumbs]);
}
