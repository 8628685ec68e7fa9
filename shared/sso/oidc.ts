/**
 * An OpenID Connect issuer, checked before a connection is saved (docs/sso.md): its discovery document
 * (`<issuer>/.well-known/openid-configuration`, OpenID Connect Discovery 1.0 docs/contract/README.md#data-guarantees) is fetched through the URL
 * guard and must name exactly the issuer given (§4.3), with the endpoints a sign-in needs.
 */

export const DISCOVERY_ERRORS = {
  notJson: "Issuer's discovery document is not a JSON object",
  mismatch: (found: string) =>
    `Issuer's discovery document names another issuer (${found.slice(0, 200)}): give the issuer exactly as it names itself`,
  missing: (field: string) => `Issuer's discovery document has no ${field}`,
} as const;

/** What the service keeps of a discovery document. */
export interface OidcIdp {
  readonly issuer: string;
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly jwks_uri: string;
  readonly userinfo_endpoint: string | null;
}

/** Where an issuer's discovery document is. */
export const discoveryUrl = (issuer: string) => `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;

/** The IdP a discovery document describes for `issuer`, or what is wrong with it. `urlOk` judges an endpoint. */
export function checkDiscovery(issuer: string, text: string, urlOk: (url: string) => boolean): { idp: OidcIdp } | { errors: string[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { errors: [DISCOVERY_ERRORS.notJson] };
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return { errors: [DISCOVERY_ERRORS.notJson] };
  const field = (name: string) => {
    const value = Object.hasOwn(doc, name) ? (doc as Record<string, unknown>)[name] : undefined;
    return typeof value === "string" ? value : undefined;
  };
  const found = field("issuer");
  if (found !== issuer) return { errors: [found === undefined ? DISCOVERY_ERRORS.missing("issuer") : DISCOVERY_ERRORS.mismatch(found)] };
  const errors: string[] = [];
  const endpoint = (name: string) => {
    const value = field(name);
    if (value === undefined || !urlOk(value)) errors.push(DISCOVERY_ERRORS.missing(name));
    return value ?? "";
  };
  const idp: OidcIdp = {
    issuer,
    authorization_endpoint: endpoint("authorization_endpoint"),
    token_endpoint: endpoint("token_endpoint"),
    jwks_uri: endpoint("jwks_uri"),
    userinfo_endpoint: field("userinfo_endpoint") ?? null,
  };
  return errors.length > 0 ? { errors } : { idp };
}
