/** The Cognito user pool the API's authorizer trusts, its cohort-super-admin group and the console's app client. */
import { Aws, Duration, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as cognito from "aws-cdk-lib/aws-cognito";
import type { Construct } from "constructs";
import { SUPER_ADMIN_GROUP } from "../shared/caller.js";
import { PASSWORD_POLICY } from "../shared/password-policy.js";
import { StackPart } from "./part.js";
import type { Settings } from "./settings.js";

export class Identity extends StackPart {
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  /**
   * The pool's managed-login domain (docs/sso.md): SSO connections' ACS URL and redirect URI are on it. A Cognito
   * prefix domain, unique per region across AWS: the stack's name and the account.
   */
  readonly domain: cognito.UserPoolDomain;

  constructor(scope: Construct, id: string, { mfa, refreshTokenValidityHours }: Pick<Settings, "mfa" | "refreshTokenValidityHours">) {
    super(scope, id);
    this.userPool = new cognito.UserPool(this, "UserPool", {
      // Administrators create users (and set their account); nobody registers themselves.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      // A changed e-mail only takes effect once verified: invitations are matched on the `email` claim.
      keepOriginal: { email: true },
      standardAttributes: {
        email: { required: true, mutable: true },
        fullname: { required: false, mutable: true },
      },
      customAttributes: {
        // Mutable so an administrator can move a user between accounts; clients cannot write it (see below).
        account_id: new cognito.StringAttribute({ minLen: 1, maxLen: 128, mutable: true }),
        // The groups an institution's IdP asserts (docs/sso.md), mapped at each federated sign-in; read by the triggers.
        sso_groups: new cognito.StringAttribute({ maxLen: 2048, mutable: true }),
      },
      // The one policy (shared/password-policy.ts): the join route checks a password against it before creating a user.
      passwordPolicy: {
        ...PASSWORD_POLICY,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      mfa: mfa === "required" ? cognito.Mfa.REQUIRED : cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      // Plus plan: compromised-credential and adaptive-authentication protection, enforced (cdk-nag AwsSolutions-COG8).
      featurePlan: cognito.FeaturePlan.PLUS,
      standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.userPool.addGroup("CohortSuperAdminGroup", {
      groupName: SUPER_ADMIN_GROUP,
      description: "Cohort super admins: may create institutions and read the security events of their account",
    });

    this.userPoolClient = this.userPool.addClient("WebClient", {
      // A browser / CLI client: no secret, direct sign-in flows; the API accepts its ID tokens.
      generateSecret: false,
      // The console signs in with USER_PASSWORD_AUTH over HTTPS (web/src/auth): no SRP library in its bundle.
      authFlows: { userSrp: true, userPassword: true, adminUserPassword: true },
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      // A console session: at most 12 hours (docs/security.md), then sign in again.
      refreshTokenValidity: Duration.hours(refreshTokenValidityHours),
      readAttributes: new cognito.ClientAttributes()
        .withStandardAttributes({ email: true, emailVerified: true, fullname: true })
        .withCustomAttributes("account_id"),
      // Only the display name: e-mail and account are identity the API trusts, so users cannot rewrite them.
      writeAttributes: new cognito.ClientAttributes().withStandardAttributes({ fullname: true }),
    });

    this.domain = this.userPool.addDomain("ManagedLoginDomain", {
      cognitoDomain: {
        domainPrefix: `${Stack.of(this)
          .stackName.toLowerCase()
          .replace(/[^a-z0-9-]/g, "-")}-${Aws.ACCOUNT_ID}`,
      },
    });

    if (mfa !== "required") {
      Validations.of(this.userPool).acknowledge({
        id: "AwsSolutions-COG2",
        reason:
          "MFA is optional (TOTP) in this environment (settings.ts: required in prod): users are provisioned by administrators " +
          "and the Plus plan's threat protection enforces adaptive authentication.",
      });
    }
  }
}
