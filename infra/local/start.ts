/**
 * `npm start`: the whole API on this machine, data kept under `.local/`, until Ctrl-C.
 *
 * Ports: the API on $PORT (default 3000), DynamoDB Local on $DYNAMODB_PORT (default 8000), cognito-local on
 * $COGNITO_PORT (default 9229), SES on $SES_PORT (default 8005), the DNS server on UDP $DNS_PORT (default 5300).
 * A port set explicitly must be free; a default that is taken is replaced by a free one. `.local/stack.json` says
 * which were used (the banner says all of them).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { paths } from "../../shared/paths.js";
import { DNS, readSettings } from "../../shared/settings.js";
import { ensureConsoleBuilt } from "./console-build.js";
import { DEFAULT_DNS_PORT, DNS_FILE, type LocalDns, startLocalDns } from "./dns-server.js";
import { LOCAL_IDP_ACCOUNTS, type LocalIdps, startLocalIdps } from "./idps.js";
import { killAllServicesNow, portIsFree, portOr } from "./services.js";
import { LOCAL_DIR, type LocalStack, STACK_FILE, type StackInfo, startLocalStack } from "./stack.js";

/** The port the shell sets in `envName`, if any. */
function portSetting(envName: string): number | undefined {
  const raw = process.env[envName];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new Error(`${envName} must be a port number, got "${raw}"`);
  return n;
}

async function port(envName: string, fallback: number): Promise<number> {
  const n = portSetting(envName);
  if (n === undefined) return portOr(fallback);
  if (!(await portIsFree(n))) throw new Error(`${envName}=${n}: that port is in use`);
  return n;
}

/** A stack.json whose API still answers means another `npm start` owns `.local/`. */
async function alreadyRunning(): Promise<string | undefined> {
  if (!existsSync(STACK_FILE)) return undefined;
  try {
    const info = JSON.parse(readFileSync(STACK_FILE, "utf8")) as StackInfo;
    await fetch(info.apiUrl, { signal: AbortSignal.timeout(1000) });
    return info.apiUrl;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const running = await alreadyRunning();
  if (running) throw new Error(`the local stack is already running at ${running} (see ${STACK_FILE}); stop it first`);
  mkdirSync(LOCAL_DIR, { recursive: true });

  const ports = {
    api: await port("PORT", 3000),
    dynamodb: await port("DYNAMODB_PORT", 8000),
    cognito: await port("COGNITO_PORT", 9229),
    ses: await port("SES_PORT", 8005),
  };
  // Verified domains' TXT lookups: the shell's resolvers when it sets them, else a DNS server of our own that
  // answers what `npm run dns` publishes (docs/sso.md#the-managed-login-locally).
  const shellResolvers = readSettings(DNS(), ["DNS_RESOLVERS"]).DNS_RESOLVERS;
  const dnsPort = portSetting("DNS_PORT");
  console.log("Starting DynamoDB Local, cognito-local, aws-ses-v2-local and the gateway…");
  // Builds web/ only when it changed since the last build.
  await ensureConsoleBuilt({ log: (line) => console.log(line) });
  let stack: LocalStack | undefined;
  let idps: LocalIdps | undefined;
  let dns: LocalDns | undefined;
  let stopping = 0;
  const shutdown = async (signal: string) => {
    if (stopping) {
      // A second Ctrl-C forces the exit. One Ctrl-C can arrive twice at once (from the terminal and relayed by
      // npm/tsx, which share our process group), so only a later one counts.
      if (Date.now() - stopping < 2000) return;
      killAllServicesNow();
      process.exit(130);
    }
    stopping = Date.now();
    console.log(`\n${signal}: stopping every local service…`);
    rmSync(STACK_FILE, { force: true });
    await idps?.close();
    await stack?.stop();
    await dns?.close();
    console.log("Stopped.");
    process.exit(0);
  };
  // Registered before starting, so Ctrl-C during start-up also stops what has started.
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, () => void shutdown(sig));

  if (shellResolvers === undefined) {
    dns = await startLocalDns({ file: DNS_FILE, port: dnsPort ?? DEFAULT_DNS_PORT, orFree: dnsPort === undefined });
  }
  const dnsResolvers = shellResolvers ?? dns?.address;
  stack = await startLocalStack({
    dataDir: LOCAL_DIR,
    persistent: true,
    ports,
    gatewayOutput: "inherit",
    ...(dnsResolvers !== undefined && { dnsResolvers }),
  });
  if (stopping) return;
  // Two institutions' IdPs on loopback, to walk a single sign-on (docs/sso.md#the-managed-login-locally).
  idps = await startLocalIdps({ cognitoDomain: stack.cognitoDomain, dataDir: LOCAL_DIR });
  writeFileSync(STACK_FILE, `${JSON.stringify(stack.info(), null, 2)}\n`);
  // Keeps the process alive; the services are unref'd children.
  setInterval(() => {}, 1 << 30);

  console.log(`
Institution Administration API — local stack (data in .local/, logs in ${stack.logDir})

  Console          ${stack.consoleUrl}  (a password to sign in with: npm run token -- <email> --super-admin --password '<pw>')
  API              ${stack.apiUrl}${paths.institutions}
  API reference    ${stack.docsUrl}  (the OpenAPI document: ${stack.apiUrl}${paths.openapi})
  Cognito (local)  ${stack.cognitoEndpoint}  pool ${stack.userPoolId}, app client ${stack.userPoolClientId}
  Managed login    ${stack.cognitoDomain}/oauth2/authorize  (the pool's domain: SAML ACS /saml2/idpresponse, OIDC /oauth2/idpresponse)
  SAML IdP (test)  metadata_url ${idps.saml.metadataUrl}
  OIDC IdP (test)  issuer ${idps.oidc.issuer}  client_id ${idps.oidc.clientId}  client_secret in ${LOCAL_DIR}/oidc-idp-client.json
  IdP accounts     ${LOCAL_IDP_ACCOUNTS.map((a) => `${a.id} (${a.email ?? "no e-mail"})`).join(", ")}: type the id on the IdP's page
  DynamoDB Local   ${stack.dynamodbEndpoint}  tables ${stack.tables.main}, ${stack.tables.events}, ${stack.tables.idempotency}
  SES (local)      ${stack.sesEndpoint}  sent mail: open ${stack.sesEndpoint}/ in a browser, or GET ${stack.sesEndpoint}/store
  DNS              ${
    dns
      ? `${dns.address} (UDP)  publish a domain's TXT record: npm run dns -- txt <name> <value>  (kept in ${DNS_FILE})`
      : `DNS_RESOLVERS=${shellResolvers} (from your shell)`
  }
  Stack info       ${STACK_FILE}

Get an ID token (-s keeps npm's banner out of stdout):
  TOKEN=$(npm run -s token -- admin@example.com --super-admin --account acme --name "Ada Admin")
  curl -H "Authorization: Bearer $TOKEN" ${stack.apiUrl}${paths.institutions}

Ctrl-C stops everything. Requests are logged below.
`);
}

main().catch(async (err: unknown) => {
  console.error(`npm start failed: ${err instanceof Error ? err.message : String(err)}`);
  killAllServicesNow();
  process.exit(1);
});
