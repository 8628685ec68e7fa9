/**
 * One way in (docs/one-way-in.md): with a custom origin domain the console's CloudFront distribution
 * sends a secret header to the API, and every function refuses a request without it (403, before anything else),
 * so nobody calls the API around CloudFront and its WAF. The stack sets `ORIGIN_VERIFY_SECRET` from a Secrets
 * Manager secret resolved at deployment; unset (no custom origin, the local stack's default), nothing is checked.
 *
 * Both settings are read when a request is checked, not at import: the local gateway's CloudFront mode
 * (`LOCAL_CLOUDFRONT=true npm start`) sets them after this module has loaded.
 */

import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { EDGE, settingReader } from "./settings.js";

/** The header CloudFront adds to every origin request (it replaces a viewer's header of that name). */
export const ORIGIN_VERIFY_HEADER = "x-origin-verify";

const digest = (value: string) => createHash("sha256").update(value).digest();
const configuredSecret = settingReader(EDGE(), "ORIGIN_VERIFY_SECRET");
const trustViewerAddress = settingReader(EDGE(), "TRUST_CLOUDFRONT_VIEWER_ADDRESS");

/** The configured secret's digest, computed once per value. */
let hashed: { readonly of: string; readonly digest: Buffer } | undefined;
function secret(): Buffer | undefined {
  const value = configuredSecret();
  if (value === undefined) return undefined;
  if (hashed?.of !== value) hashed = { of: value, digest: digest(value) };
  return hashed.digest;
}

/** Whether requests must carry the secret. */
export const originChecked = (): boolean => secret() !== undefined;

/** The request came through CloudFront: it carries the secret (compared in constant time), or none is required. */
export function fromOrigin(headers: Readonly<Record<string, string | undefined>> | undefined): boolean {
  const expected = secret();
  if (!expected) return true;
  const value = headers?.[ORIGIN_VERIFY_HEADER];
  return value !== undefined && timingSafeEqual(digest(value), expected);
}

type Connection = Pick<APIGatewayProxyEventV2, "headers" | "requestContext">;

/**
 * The viewer's IP address. Behind CloudFront the connection API Gateway sees is CloudFront's edge; the
 * viewer's is in `CloudFront-Viewer-Address` (`<ip>:<port>`, IPv6 unbracketed), which CloudFront sets
 * itself. It is read only when `trusted`, never otherwise, as a client could send the header itself.
 */
export function viewerIp(event: Connection, trusted: boolean): string {
  const sourceIp = event.requestContext.http?.sourceIp ?? "unknown";
  if (!trusted) return sourceIp;
  const viewer = event.headers?.["cloudfront-viewer-address"];
  const ip = viewer?.slice(0, Math.max(0, viewer.lastIndexOf(":")));
  return ip && isIP(ip) ? ip : sourceIp;
}

/**
 * The address the trail records for a request: `CloudFront-Viewer-Address` only when every request comes through
 * CloudFront (`TRUST_CLOUDFRONT_VIEWER_ADDRESS`, set by the stack then) and this one proved it (a secret is
 * configured and it carried it). A direct caller cannot write an address into the trail.
 */
export const viewerAddress = (event: Connection): string =>
  viewerIp(event, trustViewerAddress() && originChecked() && fromOrigin(event.headers));
