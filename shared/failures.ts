/**
 * Functions that refuse by throwing (docs/operations.md): an SSO trigger fails a sign-in so (shared/sso/trigger.ts),
 * a Lambda authorizer answers API Gateway's 401 so. Lambda's `Errors` counts a refusal as a failure, so it cannot
 * tell an operator anything; instead each unexpected failure (DynamoDB unreachable, a bug) is logged here, once, at
 * ERROR, and that line is what the function's log group counts and alarms on (`failureCount`, infra/monitoring.ts).
 * A refusal passes as it is and is never logged at ERROR.
 */
/** What the ERROR line names: its message, and the function (`handler`) and whatever else tells it apart. */
export type FailureFields = { readonly message: string; readonly handler: string } & Readonly<Record<string, string>>;

/**
 * `handler`, with a thrown error that `refusal` does not accept logged at ERROR (`fields`, and the error) and thrown
 * again, as `rethrow` makes it (default: as it was).
 */
export function loggingFailures<E, R>(
  fields: FailureFields,
  refusal: (error: unknown) => boolean,
  handler: (event: E) => Promise<R>,
  rethrow: (error: unknown) => unknown = (error) => error,
): (event: E) => Promise<R> {
  return async (event) => {
    try {
      return await handler(event);
    } catch (error) {
      if (refusal(error)) throw error;
      // Loaded at the first failure: an authorizer's cold start does not evaluate the logger (docs/cold-starts.md).
      const { logger } = await import("./telemetry.js");
      logger.error(fields, error instanceof Error ? error : String(error));
      throw rethrow(error);
    }
  };
}

/** The one error a Lambda authorizer throws to refuse: API Gateway answers it 401 `{"message":"Unauthorized"}`. */
export const UNAUTHORIZED = "Unauthorized";

export const unauthorized = (): Error => new Error(UNAUTHORIZED);

/** A Lambda authorizer (functions/scim/authorizer.ts, functions/api-keys/authorizer.ts): its refusal is `unauthorized()`. */
export function authorizer<E, R>(handler: string, authorize: (event: E) => Promise<R>): (event: E) => Promise<R> {
  return loggingFailures(
    { message: "authorizer failed", handler },
    (error) => error instanceof Error && error.message === UNAUTHORIZED,
    authorize,
  );
}
