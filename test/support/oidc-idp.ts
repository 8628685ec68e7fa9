/**
 * An institution's OpenID Connect provider on loopback (docs/sso.md#the-managed-login-locally): `oidc-provider`, a certified OpenID
 * provider, for the tests (test/integration/sso-login.test.ts) and for `npm start`.
 *
 * - One confidential client (`client_id`, `client_secret`, `client_secret_post`) whose redirect URIs are the user
 *   pool's `/oauth2/idpresponse`; the code flow.
 * - The sign-in page (`/interaction/<uid>`) asks for an account's id (`login`); that account's claims (`email`,
 *   `email_verified`, `name`, `groups`) are asserted as they were given, in the ID token and at userinfo: the test
 *   IdP's scopes `email` and `profile` carry them (`groups` with `profile`, as an IdP's groups claim is configured).
 * - Consent is taken as given (a first-party client): the grant is made on the first authorization.
 * - Its signing key is made at start and kept only in memory.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { Accounts, formBody, type IdpAccount, loginPage } from "./idp-accounts.js";

export interface OidcIdp {
  /** `http://127.0.0.1:<port>`: the issuer, and where its discovery document is. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  account(account: IdpAccount): void;
  close(): Promise<void>;
}

/** Starts the provider on 127.0.0.1 (`port`: 0 for a free one) for a client redirecting to `redirectUris`. */
export async function startOidcIdp(opts: {
  redirectUris: readonly string[];
  accounts?: readonly IdpAccount[];
  port?: number;
  clientId?: string;
  clientSecret?: string;
  name?: string;
}): Promise<OidcIdp> {
  const accounts = new Accounts(opts.accounts);
  const title = opts.name ?? "Test OIDC IdP";
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = opts.clientId ?? `client-${randomBytes(6).toString("hex")}`;
  const clientSecret = opts.clientSecret ?? randomBytes(24).toString("base64url");
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: randomBytes(8).toString("hex"), use: "sig", alg: "RS256" };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [...opts.redirectUris],
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: KoaContextWithOIDC, id: string) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: account.subject ?? account.id,
          ...(account.email !== undefined && { email: account.email, email_verified: true }),
          ...(account.name !== undefined && { name: account.name }),
          ...(account.groups !== undefined && { groups: [...account.groups] }),
        }),
      };
    },
    // A first-party client: consent is given. (oidc-provider's documented way to skip the consent prompt.)
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, params } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(String(params?.scope ?? "openid"));
      await grant.save();
      return grant;
    },
  });
  provider.on("server_error", (_ctx: unknown, err: Error) => console.error(`[oidc idp] ${err.stack ?? err}`));
  const callback = provider.callback();

  const send = (res: ServerResponse, status: number, body: string) =>
    void res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(body);

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return send(res, 400, "This sign-in has expired");
    const action = `/interaction/${uid}`;
    if (req.method === "GET") return send(res, 200, loginPage({ title, action, hidden: {}, accounts: accounts.list() }));
    const login = (await formBody(req)).get("login") ?? "";
    if (!accounts.get(login))
      return send(res, 200, loginPage({ title, action, hidden: {}, accounts: accounts.list(), error: "No such account" }));
    await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
  }

  server.on("request", (req, res) => {
    const m = /^\/interaction\/([\w-]+)$/.exec((req.url ?? "").split("?")[0] ?? "");
    if (!m?.[1]) return void callback(req, res);
    interaction(req, res, m[1]).catch((err: unknown) => {
      if (!res.headersSent) send(res, 400, `The IdP could not answer: ${(err as Error).message}`);
    });
  });
  return {
    issuer,
    clientId,
    clientSecret,
    account: (a) => accounts.put(a),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
