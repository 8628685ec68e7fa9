/**
 * Tables and details on a phone (Cloudscape's `xs` breakpoint, 688 px). A table there keeps its first
 * column in view (sticky) and stacks in it what a person reads a row by: the administrator's e-mail and
 * role, the invitation's e-mail and role, the institution's name and your role. The other columns scroll
 * sideways. An e-mail address breaks only after its @ or before a dot, never inside a name
 * ("office@acme.te st").
 */
import { Fragment, type ReactNode, useSyncExternalStore } from "react";

const PHONE = "(max-width: 687px)";

function subscribe(listener: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}

const snapshot = (): boolean => window.matchMedia(PHONE).matches;

/** True while the window is phone-sized; re-renders when that changes. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, snapshot);
}

/** Where an address may break: after its @, and before each dot. */
function addressParts(address: string): { key: number; text: string }[] {
  const parts: { key: number; text: string }[] = [];
  let start = 0;
  for (let i = 1; i < address.length; i++) {
    if (address[i - 1] === "@" || address[i] === ".") {
      parts.push({ key: start, text: address.slice(start, i) });
      start = i;
    }
  }
  parts.push({ key: start, text: address.slice(start) });
  return parts;
}

/**
 * An e-mail address as text: on one line (`nowrap`, in a wide table that scrolls instead), or allowed to
 * break only after its @ and before a dot (`<wbr>`), where the browser would otherwise split a word anywhere.
 */
export function EmailText({ address, nowrap = false }: { address: string; nowrap?: boolean }): ReactNode {
  // Chromium breaks at a <wbr> even inside `white-space: nowrap`: a one-line address has none.
  if (nowrap) return <span style={{ whiteSpace: "nowrap" }}>{address}</span>;
  return (
    <span style={{ whiteSpace: "normal", overflowWrap: "normal", wordBreak: "normal" }}>
      {addressParts(address).map((p) => (
        <Fragment key={p.key}>
          {p.key > 0 && <wbr />}
          {/* Each part on one line: a hyphen inside a name is not a place to break either. */}
          <span style={{ whiteSpace: "nowrap" }}>{p.text}</span>
        </Fragment>
      ))}
    </span>
  );
}
