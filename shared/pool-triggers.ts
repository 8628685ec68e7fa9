/**
 * The user pool's own functions: which Cognito trigger runs which module (`functions/<handler>.ts`), and the
 * subscriber of the pool's user-activity export. One list, read by both stacks, so the deployed pool and the
 * local one run the same modules with the same events:
 * - the CDK stack deploys one function per entry and attaches it to the pool as that trigger (`LambdaConfig`): the
 *   SSO ones in infra/sso-triggers.ts, the pool's own in infra/pool-triggers.ts, which also subscribes the activity
 *   handler to the export's log group;
 * - the local stack names the same functions in cognito-local's configuration (infra/local/cognito.ts), serves
 *   them over Lambda's Invoke API from the gateway's process (infra/local/lambda.ts), and its Cognito stand-in
 *   sends the activity records the export would (infra/local/cognito-local.mjs).
 *
 * A trigger is added by adding an entry here and its module under functions/pool/ (or functions/sso/). No imports: the CDK app, the
 * local stack and cognito-local's stand-in read it.
 */

/**
 * Cognito's trigger name (its `LambdaConfig` key, as cognito-local's config names it) → the handler. One function
 * per slot, and each slot here once: the pool has one function per trigger.
 */
export const POOL_TRIGGERS = {
  /** SSO (docs/sso.md#signing-in): trust and linking on a federated identity's first sign-in; nothing for others. */
  PreSignUp: "sso/pre-sign-up",
  /** SSO: require SSO, a password sign-in refused on an institution's verified domains. */
  PreAuthentication: "sso/pre-authentication",
  /** SSO: trust, membership on first sign-in and `sso_sign_in`, on a federated sign-in only. */
  PreTokenGeneration: "sso/pre-token-generation",
  /** Writes every mail the pool sends (a temporary password, a reset code, a verification code): shared/pool-mail.ts. */
  CustomMessage: "pool/custom-message",
  /** A person signed in (`sign_in`). */
  PostAuthentication: "pool/post-authentication",
  /** A person reset a forgotten password with the mailed code (`password_reset`). */
  PostConfirmation: "pool/post-confirmation",
} as const;

export type PoolTrigger = keyof typeof POOL_TRIGGERS;
export type PoolTriggerHandler = (typeof POOL_TRIGGERS)[PoolTrigger];

/** The triggers whose module lives under `functions/<family>/`. */
export type TriggersOf<F extends string> = {
  [K in PoolTrigger]: (typeof POOL_TRIGGERS)[K] extends `${F}/${string}` ? K : never;
}[PoolTrigger];

/** The triggers of one family and their handlers: `sso` (infra/sso-triggers.ts) or `pool` (infra/pool-triggers.ts). */
export const triggersOf = <F extends "sso" | "pool">(family: F) =>
  Object.entries(POOL_TRIGGERS).filter(([, handler]) => handler.startsWith(`${family}/`)) as [
    TriggersOf<F>,
    (typeof POOL_TRIGGERS)[TriggersOf<F>],
  ][];

/**
 * The subscriber of the pool's user-activity export (Plus plan, `userAuthEvents`): what no trigger sees, a failed
 * sign-in (`sign_in_failed`) and a password change (`password_changed`).
 */
export const POOL_ACTIVITY_HANDLER = "pool/activity";

/** Every handler of the pool's functions. */
export const POOL_HANDLERS: readonly string[] = [...Object.values(POOL_TRIGGERS), POOL_ACTIVITY_HANDLER];

/**
 * The name a function has locally (and in the local Lambda endpoint's URL): `institution-admin-<handler with
 * dashes>`, as the gateway names the functions it runs (infra/local/gateway.ts `lambdaContext`).
 */
export const localFunctionName = (handler: string): string => `institution-admin-${handler.replace(/\//g, "-")}`;
