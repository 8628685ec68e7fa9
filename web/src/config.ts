/** The runtime configuration: `/config.json`, written by the local gateway or, deployed, into the bucket. */
export interface ConsoleConfig {
  readonly region: string;
  readonly userPoolClientId: string;
  /** cognito-local's URL locally; `https://cognito-idp.<region>.amazonaws.com/` deployed. */
  readonly cognitoEndpoint: string;
}

export async function loadConfig(): Promise<ConsoleConfig> {
  const res = await fetch("/config.json", { cache: "no-store", headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`GET /config.json answered ${res.status}`);
  const raw = (await res.json()) as Record<string, unknown>;
  const read = (key: keyof ConsoleConfig): string => {
    const value = raw[key];
    if (typeof value !== "string" || value === "") throw new Error(`/config.json has no "${key}"`);
    return value;
  };
  return { region: read("region"), userPoolClientId: read("userPoolClientId"), cognitoEndpoint: read("cognitoEndpoint") };
}

let loaded: ConsoleConfig | undefined;

export function setConfig(config: ConsoleConfig): void {
  loaded = config;
}

/** The configuration main.tsx loaded before the first render. */
export function getConfig(): ConsoleConfig {
  if (!loaded) throw new Error("the console's configuration is not loaded");
  return loaded;
}
