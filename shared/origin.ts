/**
 * One way in (DESIGN.md §16, docs/iam.md): with a custom origin domain the console's CloudFront distribution
 * sends a secret header to the API, and every function refuses a request without it (403, before anything else),
 * so nobody calls the API around CloudFront and its WAF. The stack sets `ORIGIN_VERIFY_SECRET` from a Secrets
 * Manager secret resolved at deployment; unset (no custom origin, the local stack's default), nothing is checked.
 */

import { createHash, timingSafeEqual } from "node:crypto";
import { EDGE, readSettings } from "./settings.js";

/** The header CloudFront adds to every origin request (it replaces a viewer's header of that name). */
export const ORIGIN_VERIFY_HEADER = "x-origin-verify";

const digest = (value: string) => createHash("sha256").update(value).digest();
const configured = readSettings(EDGE(), ["ORIGIN_VERIFY_SECRET"]).ORIGIN_VERIFY_SECRET;
const secret = configured ? digest(configured) : undefined;

/** Whether requests must carry the secret. */
export const originChecked = secret !== undefined;

/** The request came through CloudFront: it carries the secret (compared in constant time), or none is required. */
export function fromOrigin(headers: Readonly<Record<string, string | undefined>> | undefined): boolean {
  if (!secret) return true;
  const value = headers?.[ORIGIN_VERIFY_HEADER];
  return value !== undefined && timingSafeEqual(digest(value), secret);
}
