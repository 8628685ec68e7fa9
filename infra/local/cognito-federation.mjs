/**
 * Federation's user-pool calls for the local Cognito (docs/sso.md), which cognito-local lacks: loaded by
 * infra/local/cognito-local.mjs beside its other stand-ins.
 *
 * - AdminLinkProviderForUser: links an identity of a provider of the pool (`SourceUser`: the provider,
 *   `Cognito_Subject` and the subject) to the pool's own user (`DestinationUser`: `Cognito` and its user name), as
 *   Cognito does: the link is kept in the pool's store (`FederationLinks`, `<provider>_<subject>` → user name) for the
 *   local federation stand-in, and the user's `identities` attribute lists it, as Cognito's does. Cognito's checks:
 *   the provider exists, the destination exists, a source is linked once, at most five links per user.
 */
export const LINKS = "FederationLinks";

/** Adds the targets to cognito-local's `Targets`; `errors` are its error classes. */
export function installFederation(Targets, { InvalidParameterError, ResourceNotFoundError, CognitoError }, storedProvider) {
  Targets.AdminLinkProviderForUser =
    ({ cognito }) =>
    async (ctx, req) => {
      const userPool = await cognito.getUserPool(ctx, req.UserPoolId);
      const source = req.SourceUser ?? {};
      const dest = req.DestinationUser ?? {};
      if (dest.ProviderName !== "Cognito") throw new InvalidParameterError("DestinationUser must be a Cognito user");
      if (source.ProviderAttributeName !== "Cognito_Subject" || !source.ProviderAttributeValue)
        throw new InvalidParameterError("SourceUser needs Cognito_Subject and its value");
      const provider = await storedProvider(ctx, userPool, String(source.ProviderName ?? ""));
      if (!provider) throw new InvalidParameterError(`Identity provider ${source.ProviderName} does not exist.`);
      const user = await userPool.getUserByUsername(ctx, String(dest.ProviderAttributeValue ?? ""));
      if (!user) throw new ResourceNotFoundError("User does not exist.");
      const key = `${provider.ProviderName}_${source.ProviderAttributeValue}`;
      const links = (await userPool.dataStore.get(ctx, LINKS)) ?? {};
      if (Object.hasOwn(links, key)) throw new InvalidParameterError("SourceUser is already linked to a user");
      const attr = user.Attributes.find((a) => a.Name === "identities");
      const identities = attr ? JSON.parse(attr.Value) : [];
      if (identities.length >= 5) throw new CognitoError("LimitExceededException", "A user can be linked to at most five identities");
      identities.push({
        userId: String(source.ProviderAttributeValue),
        providerName: provider.ProviderName,
        providerType: provider.ProviderType,
        issuer: null,
        primary: "false",
        dateCreated: String(Date.now()),
      });
      const Attributes = [
        ...user.Attributes.filter((a) => a.Name !== "identities"),
        { Name: "identities", Value: JSON.stringify(identities) },
      ];
      await userPool.saveUser(ctx, { ...user, Attributes });
      await userPool.dataStore.set(ctx, [LINKS, key], user.Username);
      return {};
    };
}

/**
 * The pre authentication trigger (require SSO, docs/sso.md), which cognito-local does not run: before a password
 * sign-in (`InitiateAuth` with USER_PASSWORD_AUTH or USER_SRP_AUTH, `AdminInitiateAuth` with
 * ADMIN_USER_PASSWORD_AUTH or ADMIN_NO_SRP_AUTH) of a user the pool has, the function named `PreAuthentication` in
 * cognito-local's TriggerFunctions is invoked through its Lambda client with Cognito's event
 * (`PreAuthentication_Authentication`); its error refuses the sign-in as Cognito does:
 * `UserLambdaValidationException`, "PreAuthentication failed with error <message>.". Refreshing runs no trigger.
 */
export function installPreAuthentication(Targets, { UserLambdaValidationError }, { Lambda, attributesToRecord }) {
  const FLOWS = new Set(["USER_PASSWORD_AUTH", "USER_SRP_AUTH", "ADMIN_USER_PASSWORD_AUTH", "ADMIN_NO_SRP_AUTH"]);
  const wrap = (target, poolOf) => {
    const original = Targets[target];
    Targets[target] = (services) => {
      const run = original(services);
      const functionName = services.config?.TriggerFunctions?.PreAuthentication;
      const lambda = functionName ? new Lambda(services.config.LambdaClient) : undefined;
      return async (ctx, req) => {
        if (lambda && FLOWS.has(req.AuthFlow) && req.AuthParameters?.USERNAME) {
          const userPool = await poolOf(services, ctx, req);
          const user = await userPool.getUserByUsername(ctx, req.AuthParameters.USERNAME);
          if (user) {
            const event = {
              version: "1",
              region: "local",
              userPoolId: userPool.options.Id,
              userName: user.Username,
              callerContext: { awsSdkVersion: "aws-sdk-unknown-unknown", clientId: req.ClientId },
              triggerSource: "PreAuthentication_Authentication",
              request: { userAttributes: attributesToRecord(user.Attributes), validationData: req.ClientMetadata ?? {} },
              response: {},
            };
            const out = await lambda
              .invoke({ FunctionName: functionName, InvocationType: "RequestResponse", Payload: JSON.stringify(event) })
              .promise();
            if (out.FunctionError) {
              const message = JSON.parse(String(out.Payload ?? "{}")).errorMessage ?? out.FunctionError;
              throw new UserLambdaValidationError(`PreAuthentication failed with error ${message}.`);
            }
          }
        }
        return run(ctx, req);
      };
    };
  };
  wrap("InitiateAuth", (services, ctx, req) => services.cognito.getUserPoolForClientId(ctx, req.ClientId));
  wrap("AdminInitiateAuth", (services, ctx, req) => services.cognito.getUserPool(ctx, req.UserPoolId));
}
