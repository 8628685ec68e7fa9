/** What pages ask of the frame around them: breadcrumbs, the page title and flash messages. */
import type { BreadcrumbGroupProps } from "@cloudscape-design/components/breadcrumb-group";
import type { FlashbarProps } from "@cloudscape-design/components/flashbar";
import { createContext, useContext, useEffect } from "react";

export interface Shell {
  setCrumbs(items: readonly BreadcrumbGroupProps.Item[]): void;
  /** Shows a dismissible message above the page; it stays across one navigation. */
  flash(item: { type: FlashbarProps.Type; content: string; header?: string }): void;
}

export const ShellContext = createContext<Shell>({ setCrumbs: () => {}, flash: () => {} });

export const useShell = (): Shell => useContext(ShellContext);

/** Sets the breadcrumbs and the document title for a page. */
export function usePage(title: string, crumbs: readonly BreadcrumbGroupProps.Item[]): void {
  const { setCrumbs } = useShell();
  const key = JSON.stringify(crumbs);
  useEffect(() => {
    document.title = `${title} · Institution Admin`;
    setCrumbs(JSON.parse(key) as BreadcrumbGroupProps.Item[]);
  }, [title, key, setCrumbs]);
}
