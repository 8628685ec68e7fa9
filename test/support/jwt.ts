/**
 * Tokens signed with the local pool's real key, for what the local Cognito will not issue: a token without
 * `exp` or `sub`, or issued in the future. cognito-local signs every pool's tokens with the private key it
 * ships (`lib/keys/cognitoLocal.private.json`, key id "CognitoLocal", RS256, see its tokenGenerator), and
 * the gateway trusts the JWKS served from it, so these differ from a real token only in the claims chosen.
 */
import { createSign, type KeyObject, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { stack, uniqEmail } from "./api.js";

/** The PEM cognito-local signs with. */
export const cognitoLocalKey = (createRequire(import.meta.url)("cognito-local/lib/keys/cognitoLocal.private.json") as { pem: string }).pem;

/** An RS256 JWT of `payload`, by default with cognito-local's key and key id. Claims are signed exactly as given. */
export function signJwt(payload: Record<string, unknown>, key: string | KeyObject = cognitoLocalKey, kid = "CognitoLocal"): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const input = `${b64({ alg: "RS256", typ: "JWT", kid })}.${b64(payload)}`;
  return `${input}.${createSign("RSA-SHA256").update(input).sign(key).toString("base64url")}`;
}

/**
 * The claims of a valid ID token of this run's pool (issuer, audience, `token_use: id`, an hour of
 * validity), with `overrides` merged over them; an override of `undefined` removes that claim.
 */
export function idClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    sub: "5b1b3a0e-0000-4000-8000-000000000001",
    email: uniqEmail("forged"),
    token_use: "id",
    "custom:account_id": "acct-forged",
    iss: `${stack.cognitoEndpoint}/${stack.userPoolId}`,
    aud: stack.userPoolClientId,
    iat: now,
    exp: now + 3600,
    ...overrides,
  };
  for (const [k, v] of Object.entries(claims)) if (v === undefined) delete claims[k];
  return claims;
}

/**
 * An ID token for a user of this run's pool as its JWT authorizer sees one, minted without signing in: for files
 * that seed a trail and read it back exactly, where the `sign_in` a real sign-in records (the pool's
 * PostAuthentication trigger, people-events.test.ts) would be one more event. The user need not exist in the pool.
 */
export function tokenWithoutSignIn(email: string, opts: { superAdmin?: boolean; account?: string; name?: string } = {}): string {
  return signJwt(
    idClaims({
      sub: randomUUID(),
      email: email.toLowerCase(),
      email_verified: true,
      "custom:account_id": opts.account,
      "cognito:groups": opts.superAdmin ? ["cohort_super_admin"] : undefined,
      name: opts.name,
    }),
  );
}
