/**
 * The headers every answer carries (docs/contract/README.md): the API's, the local gateway's own, the API document's and
 * the local console server's. Nothing is kept in a shared cache (the audit trail must not sit in one), and no
 * browser guesses a type. No imports: the local servers and the CDK stack load it too.
 */
export const SECURITY_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const;

/**
 * The console page's policy: its own origin, Cognito's (`cognitoOrigin`) for the password sign-in, and the
 * pool's managed login (`managedLoginOrigin`, docs/sso.md) whose token endpoint the single sign-on's code
 * exchange calls. No inline script or style, no framing, no plugin, no `<base>`.
 */
export function consoleContentSecurityPolicy(cognitoOrigin: string, managedLoginOrigin = ""): string {
  // Locally both are the one local Cognito: named once.
  const connect = [...new Set([cognitoOrigin, managedLoginOrigin].filter((o) => o !== ""))];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...connect].join(" "),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The console's security headers (docs/security.md), one source for the local console server (infra/local/
 * console.ts) and the deployed one (CloudFront's response headers policy, infra/console.ts), so that the
 * browser tests exercise the deployed policy. `no-referrer`: invitation links carry their token in the query
 * string, which must not leave in a `Referer`.
 */
export function consoleSecurityHeaders(cognitoOrigin: string, managedLoginOrigin = "") {
  return {
    "content-security-policy": consoleContentSecurityPolicy(cognitoOrigin, managedLoginOrigin),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
  } as const;
}
