/**
 * In a deployed bundle, this module stands in for `@aws-sdk/credential-provider-node`, the SDK's default
 * credential chain (an esbuild alias, `BUNDLE_ALIAS` in infra/api-function.ts). Lambda hands a function
 * its role's credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN),
 * the chain's first link; the other links (SSO, shared ini files, credential process, web identity, IMDS and
 * container endpoints, with the STS, SSO and sign-in clients they call) never answer there, and cost each
 * bundle about 90 KiB. Outside a bundle (tests, the local stack, scripts) the SDK's own chain is used: the
 * alias exists only in esbuild. Same exports as the package.
 */
import { fromEnv } from "@aws-sdk/credential-provider-env";

type Init = Parameters<typeof fromEnv>[0];
type Credentials = { readonly expiration?: Date } | undefined;

/** The environment's credentials; an error naming them when they are missing (as the chain's last link would). */
export const defaultProvider = (init: Init = {}) => fromEnv(init);

/** As the package: credentials with an expiration are refreshed by the client (Lambda's carry none). */
export const credentialsWillNeedRefresh = (credentials: Credentials): boolean => credentials?.expiration !== undefined;
export const credentialsTreatedAsExpired = (credentials: Credentials): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
