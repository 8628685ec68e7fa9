/** The runtime configuration: `/config.json`, written by the local gateway or, deployed, into the bucket. */
export interface ConsoleConfig {
  readonly region: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  /** cognito-local's URL locally; `https://cognito-idp.<region>.amazonaws.com/` deployed. */
  readonly cognitoEndpoint: string;
  /**
   * The pool's managed login, an origin without a trailing slash (`https://<prefix>.auth.<region>.amazoncognito.com`
   * deployed): single sign-on's authorize, token and logout endpoints (auth/sso.ts).
   */
  readonly cognitoDomain: string;
  /** The pool's MFA: where it is required, Your account does not offer turning TOTP off. */
  readonly mfa: "optional" | "required";
}

async function fetchConfig(): Promise<ConsoleConfig> {
  const res = await fetch("/config.json", { cache: "no-store", headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`GET /config.json answered ${res.status}`);
  const raw = (await res.json()) as Record<string, unknown>;
  const read = (key: keyof ConsoleConfig): string => {
    const value = raw[key];
    if (typeof value !== "string" || value === "") throw new Error(`/config.json has no "${key}"`);
    return value;
  };
  return {
    region: read("region"),
    userPoolId: read("userPoolId"),
    userPoolClientId: read("userPoolClientId"),
    cognitoEndpoint: read("cognitoEndpoint"),
    cognitoDomain: read("cognitoDomain").replace(/\/+$/, ""),
    mfa: raw.mfa === "required" ? "required" : "optional",
  };
}

let pending: Promise<ConsoleConfig> | undefined;
let loaded: ConsoleConfig | undefined;

/** Fetches `/config.json` once; every caller shares the one request. */
export function loadConfig(): Promise<ConsoleConfig> {
  pending ??= fetchConfig().then((config) => {
    loaded = config;
    return config;
  });
  return pending;
}

/** The configuration, once main.tsx has loaded it (the app renders only then). */
export function getConfig(): ConsoleConfig {
  if (!loaded) throw new Error("the console's configuration is not loaded");
  return loaded;
}
