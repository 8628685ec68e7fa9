/**
 * The Cognito user pool the API's authorizer trusts, its cohort-super-admin group and its managed-login domain. The
 * console's app client is made by a custom resource (app-client.ts), so that a deployment keeps its providers.
 */
import { Aws, Duration, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as cognito from "aws-cdk-lib/aws-cognito";
import type { Construct } from "constructs";
import { SUPER_ADMIN_GROUP } from "../shared/caller.js";
import { PASSWORD_POLICY } from "../shared/password-policy.js";
import { StackPart } from "./part.js";
import type { Settings } from "./settings.js";

/** Words Cognito refuses in a domain prefix. */
const RESERVED = /aws|amazon|cognito/g;
/** The stack's part of a prefix: with `-` and the 12 digits of the account, at most Cognito's 63 characters. */
const MAX_STACK_PART = 63 - 13;

/**
 * The stack's name as a Cognito domain prefix's first part: lower case, letters, digits and hyphens, without the
 * words Cognito reserves, at most 50 characters, starting with a letter or digit. A name that was valid before is
 * unchanged: a new prefix is a new domain, whose ACS URLs every institution's IdP would need again.
 */
export function domainPrefixOf(stackName: string): string {
  let name = stackName.toLowerCase().replace(/[^a-z0-9-]/g, "-");
  // Until none is left: taking one out may join the letters of another ("amawszon").
  for (let before = ""; before !== name; ) {
    before = name;
    name = name.replace(RESERVED, "");
  }
  name = name.replace(/^-+/, "").slice(0, MAX_STACK_PART);
  return name || "institution-admin";
}

export class Identity extends StackPart {
  readonly userPool: cognito.UserPool;
  /**
   * The pool's managed-login domain (docs/sso.md): SSO connections' ACS URL and redirect URI are on it. A Cognito
   * prefix domain, unique per region across AWS: the stack's name and the account.
   */
  readonly domain: cognito.UserPoolDomain;
  /**
   * The domain's URL, `https://<prefix>.auth.<region>.amazoncognito.com`, as `domain.baseUrl()` says it but built
   * from the prefix itself rather than a reference to the domain resource: the console's CSP and config name it,
   * and the pool's triggers name the console, so a reference would close a cycle (pool → triggers → console →
   * domain → pool).
   */
  readonly domainUrl: string;

  constructor(scope: Construct, id: string, { mfa }: Pick<Settings, "mfa">) {
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

    const domainPrefix = `${domainPrefixOf(Stack.of(this).stackName)}-${Aws.ACCOUNT_ID}`;
    this.domain = this.userPool.addDomain("ManagedLoginDomain", { cognitoDomain: { domainPrefix } });
    this.domainUrl = `https://${domainPrefix}.auth.${Aws.REGION}.amazoncognito.com`;

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
