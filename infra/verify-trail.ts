/**
 * `npm run verify-trail -- --api <url> --token <id token> [--from <iso>] [--to <iso>] [--public-key <pem file>]
 * [--grace <seconds>]`: checks the caller's account's trail with a public key alone (docs/trail-verify.md). Fetches
 * the digests, then every event of the window (the list, paged, and each event as `GET /security_events/:id`
 * returns it), recomputes every hash, checks the chain, both its ends and every signature, and that every
 * event of an ended period is held by a digest. `--public-key` pins the key (a PEM file, or the PEM itself)
 * instead of trusting the one the API serves, which an attacker who re-signed the digests could have swapped.
 * Prints `verified N events in H hours` and exits 0, or names the first discrepancy and exits 1 (2 when the
 * API could not be read).
 */
import { createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { paths } from "../shared/paths.js";
import type { Digest, EventBody } from "../shared/trail/digest.js";
import { VERIFY_GRACE_MS, verifyTrail } from "../shared/trail/verify.js";

const EVENTS = paths.securityEvents;

export interface VerifyOptions {
  readonly api: string;
  readonly token: string;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  /** The pinned public key (PEM); without it, the key the API serves. */
  readonly publicKey?: string | undefined;
  /** How long after a period's end its digest must exist (default `VERIFY_GRACE_MS`). */
  readonly graceMs?: number | undefined;
}

/** A key's SPKI DER as hex, to compare two PEMs whatever their line breaks. */
const spki = (pem: string) => createPublicKey(pem).export({ type: "spki", format: "der" }).toString("hex");

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
  const newest = digests.at(-1);
  const periodMs = newest ? Date.parse(newest.period_end) - Date.parse(newest.period_start) : 3_600_000;
  // The window's events: from `from` (else the account's first event, so that a deleted first digest shows)
  // to the end of `to`'s period.
  const to = opts.to === undefined ? undefined : new Date(Math.ceil((Date.parse(opts.to) + 1) / periodMs) * periodMs - 1).toISOString();
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await get<{ events: { id: string }[]; meta: { next_cursor: string | null } }>(opts, EVENTS, {
      from: opts.from,
      to,
      limit: "200",
      cursor,
    });
    ids.push(...page.events.map((e) => e.id));
    cursor = page.meta.next_cursor ?? undefined;
  } while (cursor);
  const events = await inBatches(ids, 8, (id) => get<EventBody>(opts, `${EVENTS}/${id}`));

  const publicKey = opts.publicKey ?? public_key;
  const result = verifyTrail({
    digests,
    events,
    publicKey,
    periodMs,
    now: Date.now(),
    graceMs: opts.graceMs ?? VERIFY_GRACE_MS,
    fromFirstEvent: opts.from === undefined,
  });
  const problems = result.problems.map((p) => `${p.kind}: ${p.detail}`);
  if (opts.publicKey !== undefined && spki(opts.publicKey) !== spki(public_key)) {
    problems.unshift("bad signature: the API serves a public key other than the pinned one");
  }
  const unit = periodMs === 3_600_000 ? "hours" : `periods of ${periodMs / 1000} s`;
  if (problems.length > 0) return { line: `FAILED: ${problems[0]}`, code: 1, problems };
  const pending = result.pending.length > 0 ? ` (${result.pending.length} newer period(s) with events not digested yet)` : "";
  return { line: `verified ${result.events} events in ${result.digests} ${unit}${pending}`, code: 0, problems };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      api: { type: "string" },
      token: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      "public-key": { type: "string" },
      grace: { type: "string" },
    },
  });
  if (!values.api || !values.token) {
    console.error(
      "usage: npm run verify-trail -- --api <url> --token <id token> [--from <iso>] [--to <iso>] [--public-key <pem file>] [--grace <seconds>]",
    );
    process.exit(2);
  }
  try {
    const pinned = values["public-key"];
    const { line, code, problems } = await verifyRemoteTrail({
      api: values.api,
      token: values.token,
      from: values.from,
      to: values.to,
      publicKey: pinned === undefined ? undefined : pinned.startsWith("-----BEGIN") ? pinned : readFileSync(pinned, "utf8"),
      graceMs: values.grace === undefined ? undefined : Number(values.grace) * 1000,
    });
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
