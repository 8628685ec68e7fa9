/**
 * `npm start`'s two institutions' identity providers on loopback (docs/sso.md#the-managed-login-locally), the same ones the tests run
 * (test/support/saml-idp.ts, test/support/oidc-idp.ts), so a person can walk a sign-in: connect an institution to one
 * of them, then "Continue with" it on the console's sign-in page.
 *
 * Their ports are fixed when free (SAML_IDP_PORT, default 7100; OIDC_IDP_PORT, default 7200), so a connection saved
 * in `.local/` keeps working across restarts. The OIDC client's id and secret are made once and kept in
 * `.local/oidc-idp-client.json` (0600) for the same reason; the SAML IdP's signing key is made at each start (the
 * managed login reads the metadata at each sign-in).
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IdpAccount } from "../../test/support/idp-accounts.js";
import { type OidcIdp, startOidcIdp } from "../../test/support/oidc-idp.js";
import { type SamlIdp, startSamlIdp } from "../../test/support/saml-idp.js";
import { portOr } from "./services.js";

/** The people either IdP signs in: on `example.edu` (verify it first), on another institution's domain, without e-mail. */
export const LOCAL_IDP_ACCOUNTS: readonly IdpAccount[] = [
  { id: "ada", email: "ada@example.edu", name: "Ada Lovelace", groups: ["IT", "Staff"] },
  { id: "grace", email: "grace@example.edu", name: "Grace Hopper", groups: ["Staff"] },
  { id: "mallory", email: "mallory@other-university.example", name: "Mallory (another institution's domain)" },
  { id: "nomail", name: "No E-mail" },
];

export interface LocalIdps {
  readonly saml: SamlIdp;
  readonly oidc: OidcIdp;
  close(): Promise<void>;
}

function oidcClient(dir: string): { clientId: string; clientSecret: string } {
  const file = join(dir, "oidc-idp-client.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as { clientId: string; clientSecret: string };
  const client = { clientId: "institution-admin-local", clientSecret: randomBytes(24).toString("base64url") };
  writeFileSync(file, `${JSON.stringify(client, null, 2)}\n`, { mode: 0o600 });
  return client;
}

function port(name: string, fallback: number): Promise<number> {
  const raw = process.env[name];
  return portOr(raw ? Number(raw) : fallback);
}

/** Starts both IdPs for the pool whose managed login is at `cognitoDomain`; client details kept under `dataDir`. */
export async function startLocalIdps(opts: { cognitoDomain: string; dataDir: string }): Promise<LocalIdps> {
  const [samlPort, oidcPort] = [await port("SAML_IDP_PORT", 7100), await port("OIDC_IDP_PORT", 7200)];
  const saml = await startSamlIdp({ accounts: LOCAL_IDP_ACCOUNTS, port: samlPort, name: "Example University (SAML, local)" });
  const oidc = await startOidcIdp({
    ...oidcClient(opts.dataDir),
    redirectUris: [`${opts.cognitoDomain.replace(/\/+$/, "")}/oauth2/idpresponse`],
    accounts: LOCAL_IDP_ACCOUNTS,
    port: oidcPort,
    name: "Example University (OIDC, local)",
  });
  return { saml, oidc, close: async () => void (await Promise.all([saml.close(), oidc.close()])) };
}
