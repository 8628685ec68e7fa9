/** Talking SCIM to the local stack: a directory connection and requests with its token, as Entra ID and Okta send them. */
import { expect } from "vitest";
import { paths } from "../../shared/routes.js";
import { type CallResult, call } from "./api.js";
import { INST } from "./flows.js";

export const SCIM = paths.scim;
/** The RFC's URNs spelled here again, not imported from shared/scim/protocol.ts: a typo there must fail a test. */
export const URN = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  enterprise: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
  list: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patch: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
} as const;

export const connectionPath = (institutionId: string) => `${INST}/${institutionId}/scim`;

/** Connects (201) or rotates (200) and returns the token. */
export async function connect(
  ownerToken: string,
  institutionId: string,
  expected: 200 | 201 = 201,
): Promise<{ token: string; body: CallResult["body"] }> {
  const res = await call("POST", connectionPath(institutionId), { token: ownerToken });
  expect(res.status, res.text).toBe(expected);
  return { token: res.body.scim.token, body: res.body };
}

/** A SCIM request with the directory's token; the body as `application/scim+json`. */
export function scim(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  query?: Record<string, string | number | undefined>,
): Promise<CallResult> {
  return call(method, `${SCIM}${path}`, {
    token,
    ...(body !== undefined && { rawBody: JSON.stringify(body), headers: { "content-type": "application/scim+json" } }),
    ...(query && { query }),
  });
}

/** A user as Entra ID creates one. */
export function entraUser(userName: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: [URN.user, URN.enterprise],
    externalId: userName.split("@")[0],
    userName,
    active: true,
    displayName: `Person ${userName.split("@")[0]}`,
    emails: [{ primary: true, type: "work", value: userName }],
    name: { formatted: `Person ${userName.split("@")[0]}`, familyName: "Person", givenName: userName.split("@")[0] },
    [URN.enterprise]: { department: "Registry", employeeNumber: "42" },
    ...extra,
  };
}

/** The RFC's error shape (RFC 7644 §3.12). */
export function expectScimError(res: CallResult, status: number, scimType?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/scim\+json/);
  expect(res.body.schemas).toEqual([URN.error]);
  expect(res.body.status).toBe(String(status));
  expect(typeof res.body.detail).toBe("string");
  if (scimType) expect(res.body.scimType).toBe(scimType);
}
