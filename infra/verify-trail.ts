/**
 * `npm run verify-trail -- --api <url> --token <id token> [--from <iso>] [--to <iso>]`: checks the caller's
 * account's trail with the public key the API serves and nothing else (DESIGN.md §10). Fetches the digests,
 * then every event of their periods (the list, paged, and each event as `GET /security_events/:id` returns
 * it), recomputes every hash, checks the chain and every signature. Prints `verified N events in H hours`
 * and exits 0, or names the first discrepancy and exits 1 (2 when the API could not be read).
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Digest, EventBody } from "../shared/trail/digest.js";
import { verifyTrail } from "../shared/trail/verify.js";

const EVENTS = "/api/v1/admin/security_events";

export interface VerifyOptions {
  readonly api: string;
  readonly token: string;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

async function get<T>(opts: VerifyOptions, path: string, query: Record<string, string | undefined> = {}): Promise<T> {
  const url = new URL(path, opts.api);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: { authorization: `Bearer ${opts.token}` } });
  if (res.status !== 200) throw new Error(`GET ${url.pathname}${url.search}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
}

/** Runs `fn` over `items`, `n` at a time. */
async function inBatches<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += n) out.push(...(await Promise.all(items.slice(i, i + n).map(fn))));
  return out;
}

/** The report line and the exit code of verifying the trail `opts` names. */
export async function verifyRemoteTrail(opts: VerifyOptions): Promise<{ line: string; code: number; problems: string[] }> {
  const { digests, public_key } = await get<{ digests: Digest[]; public_key: string }>(opts, `${EVENTS}/digests`, {
    from: opts.from,
    to: opts.to,
  });
  const first = digests[0];
  const periodMs = first ? Date.parse(first.period_end) - Date.parse(first.period_start) : 3_600_000;
  // Whole periods: from the first digest's start (or `from`'s period) to `to`'s period end.
  const startMs = first ? Date.parse(first.period_start) : Math.floor(Date.parse(opts.from ?? "1970-01-01") / periodMs) * periodMs;
  const to = opts.to === undefined ? undefined : new Date(Math.ceil((Date.parse(opts.to) + 1) / periodMs) * periodMs - 1).toISOString();
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await get<{ events: { id: string }[]; meta: { next_cursor: string | null } }>(opts, EVENTS, {
      from: new Date(startMs).toISOString(),
      to,
      limit: "200",
      cursor,
    });
    ids.push(...page.events.map((e) => e.id));
    cursor = page.meta.next_cursor ?? undefined;
  } while (cursor);
  const events = await inBatches(ids, 8, (id) => get<EventBody>(opts, `${EVENTS}/${id}`));

  const result = verifyTrail({ digests, events, publicKey: public_key, periodMs });
  const problems = result.problems.map((p) => `${p.kind}: ${p.detail}`);
  const unit = periodMs === 3_600_000 ? "hours" : `periods of ${periodMs / 1000} s`;
  if (result.problems.length > 0) return { line: `FAILED: ${problems[0]}`, code: 1, problems };
  const pending = result.pending.length > 0 ? ` (${result.pending.length} newer period(s) with events not digested yet)` : "";
  return { line: `verified ${result.events} events in ${result.digests} ${unit}${pending}`, code: 0, problems };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { api: { type: "string" }, token: { type: "string" }, from: { type: "string" }, to: { type: "string" } },
  });
  if (!values.api || !values.token) {
    console.error("usage: npm run verify-trail -- --api <url> --token <id token> [--from <iso>] [--to <iso>]");
    process.exit(2);
  }
  try {
    const { line, code, problems } = await verifyRemoteTrail({ api: values.api, token: values.token, from: values.from, to: values.to });
    console.log(line);
    for (const p of problems.slice(1)) console.log(`  also ${p}`);
    process.exit(code);
  } catch (err) {
    console.error(`verify-trail could not read the trail: ${(err as Error).message}`);
    process.exit(2);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main();
}
