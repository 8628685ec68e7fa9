/**
 * Reading the trail's digests (docs/trail.md): cohort super admins, their own account only, with the public
 * key that checks them, so that a verifier needs nothing else.
 */

import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { config, retainedSince } from "../config.js";
import { parseQuery } from "../paging.js";
import { digestsQuery } from "../security-events/schema.js";
import type { Digest } from "./digest.js";
import { digestsBetween } from "./repository.js";

/** The latest instant a stored period can start at (sorts after every ISO instant). */
const END_OF_TIME = "9999-12-31T23:59:59.999Z";

/**
 * The caller's account's digests whose period starts in [`from`, `to`] (a period that starts before `from`
 * but holds it counts too), oldest first, and the public key (PEM). A period that began before the
 * retention is left out: some of its events are no longer readable, so it could not be checked. One Query.
 */
export async function listDigests(
  caller: Caller,
  query: Readonly<Record<string, string | undefined>>,
  now = clock(),
): Promise<{ digests: Digest[]; public_key: string }> {
  const q = parseQuery(digestsQuery, query);
  const period = config.digestPeriodSeconds * 1000;
  const retained = Math.ceil(retainedSince(now) / period) * period;
  const wanted = q.from === undefined ? retained : Math.floor(Date.parse(q.from) / period) * period;
  const from = new Date(Math.max(retained, wanted)).toISOString();
  const to = q.to ?? END_OF_TIME;
  const publicKey = config.digestKey.publicKey;
  if (publicKey === undefined) throw new Error("DIGEST_PUBLIC_KEY is not configured");
  return { digests: from > to ? [] : await digestsBetween(caller.accountId, from, to), public_key: publicKey };
}
