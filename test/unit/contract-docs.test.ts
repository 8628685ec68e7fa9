/**
 * The contract pages (docs/contract/) are held to the code they describe (issue 41): every route of the route
 * table has a line of some page with its method and path, and the event catalogue lists every event type with
 * every key its `details` may carry, as shared/event-details.ts declares them. A route or an event added
 * without its page fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../shared/constants.js";
import { DETAIL_KEYS } from "../../shared/event-details.js";
import { paths } from "../../shared/paths.js";
import { routes, SCIM_BASE_PATH } from "../../shared/routes.js";

const CONTRACT = resolve(import.meta.dirname, "../../docs/contract");
const pages = readdirSync(CONTRACT).filter((f) => f.endsWith(".md"));
const lines = pages.flatMap((f) => readFileSync(join(CONTRACT, f), "utf8").split("\n"));
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The path as the pages write it: SCIM's relative to the service's base URL. */
const written = (path: string): string => (path.startsWith(`${SCIM_BASE_PATH}/`) ? path.slice(SCIM_BASE_PATH.length) : path);

/** Whether some line names `method` and `path` (the path whole: not a prefix of a longer one). */
function documented(method: string, path: string): boolean {
  const p = new RegExp(`${escaped(written(path))}(?![\\w/{}])`);
  const m = new RegExp(`\\b${method}\\b`);
  return lines.some((line) => p.test(line) && m.test(line));
}

describe("the contract pages", () => {
  it("name every route of the route table, with its method", () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((r) => !documented(r.method, r.path)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("the matcher tells a route from a longer one that starts like it", () => {
    expect(documented("POST", `${paths.invitations}/{id}/resend`)).toBe(true);
    expect(documented("PUT", `${paths.invitations}/{id}`)).toBe(false);
  });

  it("are all linked from the contract's first page", () => {
    const first = readFileSync(join(CONTRACT, "README.md"), "utf8");
    expect(pages.filter((f) => f !== "README.md" && !first.includes(`](${f})`))).toEqual([]);
  });

  it("list every event type in the catalogue, each with every key of its details", () => {
    const catalogue = readFileSync(join(CONTRACT, "events.md"), "utf8");
    const rows = new Map([...catalogue.matchAll(/^\| `([a-z_]+)` \|(.*)$/gm)].map((m) => [m[1] ?? "", m[2] ?? ""] as const));
    const missing = EVENT_TYPES.filter((t) => !rows.has(t));
    expect(missing).toEqual([]);
    expect([...rows.keys()].filter((t) => !(EVENT_TYPES as readonly string[]).includes(t))).toEqual([]);
    const keysMissing = EVENT_TYPES.flatMap((t) =>
      DETAIL_KEYS[t].filter((key) => !(rows.get(t) ?? "").includes(`\`${String(key)}\``)).map((key) => `${t}.${String(key)}`),
    );
    expect(keysMissing).toEqual([]);
  });
});
