/**
 * The console's app client, made and updated by a custom resource rather than declared (docs/sso.md, "The
 * redeploy rule"): the service lists each institution's identity provider on the client at run time, and
 * CloudFormation would reset that list on any update of an `AWS::Cognito::UserPoolClient`. The resource's function
 * (functions/sso/app-client.ts) creates the client listing every provider the pool has, and on an update writes
 * the settings below while keeping the providers the client lists, under the service's lock on the client. So the
 * template holds the client's settings and never its providers (`COGNITO` is not among them while an institution is
 * connected: shared/sso/app-client.ts, `clientProviders`).
 *
 * Its role may make the client calls on the pool's ARN alone (`APP_CLIENT_ACTIONS`) and put and delete the lock item
 * (`SSOPOOL`) in the main table, nothing else of it.
 */
import { type CfnElement, CustomResource, Duration, Lazy, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as cognito from "aws-cdk-lib/aws-cognito";
import * as iam from "aws-cdk-lib/aws-iam";
import { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import { Provider } from "aws-cdk-lib/custom-resources";
import type { Construct } from "constructs";
import { type Environment, environment } from "../shared/settings.js";
import { type ClientSettings, consoleOAuth, PROVIDERS_RULE } from "../shared/sso/app-client.js";
import { ssoKeys } from "../shared/tables.js";
import { BUNDLING, bundlingDefine, handlerCode } from "./api-function.js";
import { StackPart } from "./part.js";
import type { Settings } from "./settings.js";

export const APP_CLIENT_HANDLER = "sso/app-client";

/** The custom resource's Cognito calls, on the pool's ARN. */
export const APP_CLIENT_ACTIONS = [
  "cognito-idp:CreateUserPoolClient",
  "cognito-idp:DescribeUserPoolClient",
  "cognito-idp:UpdateUserPoolClient",
  "cognito-idp:DeleteUserPoolClient",
  "cognito-idp:ListIdentityProviders",
] as const;

export interface ConsoleClientProps extends Pick<Settings, "refreshTokenValidityHours" | "logRetention"> {
  readonly userPool: cognito.UserPool;
  readonly mainTableArn: string;
  /** The functions' common environment (the main table, for the lock). */
  readonly environment: Environment;
}

/**
 * Every setting of the client but its providers, as UpdateUserPoolClient takes them. The password flow
 * (USER_PASSWORD_AUTH: the console, web/src/auth) and SRP stay; the managed login gives the code grant.
 */
export function consoleClientSettings(refreshTokenValidityHours: number, consoleOrigins: readonly string[]): ClientSettings {
  return {
    ClientName: "console",
    ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
    ...consoleOAuth(consoleOrigins),
    PreventUserExistenceErrors: "ENABLED",
    EnableTokenRevocation: true,
    IdTokenValidity: 60,
    AccessTokenValidity: 60,
    // A console session: at most 12 hours (docs/security.md), then sign in again.
    RefreshTokenValidity: refreshTokenValidityHours * 60,
    TokenValidityUnits: { IdToken: "minutes", AccessToken: "minutes", RefreshToken: "minutes" },
    ReadAttributes: ["custom:account_id", "email", "email_verified", "name"],
    // Only the display name: e-mail and account are identity the API trusts, so users cannot rewrite them.
    WriteAttributes: ["name"],
  };
}

export class ConsoleClient extends StackPart {
  readonly userPoolClient: cognito.IUserPoolClient;
  readonly function: NodejsFunction;
  readonly resource: CustomResource;
  private origins: readonly string[] | undefined;

  constructor(scope: Construct, id: string, props: ConsoleClientProps) {
    super(scope, id);
    const logGroup = new logs.LogGroup(this, "AppClientLogs", { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, "AppClientRole", {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: `Runs functions/${APP_CLIENT_HANDLER}.ts`,
    });
    logGroup.grantWrite(role);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ sid: "AppClient", actions: [...APP_CLIENT_ACTIONS], resources: [props.userPool.userPoolArn] }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: "ClientLock",
        actions: ["dynamodb:PutItem", "dynamodb:DeleteItem"],
        resources: [props.mainTableArn],
        conditions: { "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": [ssoKeys.clientLock("").pk] } },
      }),
    );
    this.function = new NodejsFunction(this, "AppClient", {
      ...handlerCode(APP_CLIENT_HANDLER),
      memorySize: 256,
      // The lock may be held for a connection's change (seconds) before the client's calls.
      timeout: Duration.seconds(60),
      role,
      logGroup,
      description: `${APP_CLIENT_HANDLER}: the console app client's custom resource (keeps its identity providers)`,
      environment: environment(props.environment),
      bundling: { ...BUNDLING, define: bundlingDefine(false) },
    });
    const frameworkLogs = new logs.LogGroup(this, "AppClientProviderLogs", {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const provider = new Provider(this, "AppClientProvider", { onEventHandler: this.function, logGroup: frameworkLogs });
    const logicalId = (c: Construct) => Stack.of(this).getLogicalId(c.node.defaultChild as CfnElement);
    Validations.of(provider).acknowledge(
      {
        id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
        reason: "CDK's custom-resource framework function, which runs only during deployments.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${logicalId(this.function)}.Arn>:*]`,
        reason: "CDK's custom-resource framework invokes any version of the app client's function.",
      },
    );
    const stack = Stack.of(this);
    this.resource = new CustomResource(this, "ConsoleAppClient", {
      serviceToken: provider.serviceToken,
      resourceType: "Custom::ConsoleAppClient",
      properties: {
        UserPoolId: props.userPool.userPoolId,
        // Not the providers: the rule the function lists them by, so that a new rule reaches a deployed client.
        ProvidersRule: PROVIDERS_RULE,
        // One JSON string: CloudFormation would pass numbers and booleans to the function as strings.
        Client: Lazy.string({
          produce: () => {
            if (!this.origins) throw new Error("The console app client needs the console's origin (serveAt)");
            return stack.toJsonString(consoleClientSettings(props.refreshTokenValidityHours, this.origins));
          },
        }),
      },
    });
    this.userPoolClient = cognito.UserPoolClient.fromUserPoolClientId(this, "AppClientRef", this.resource.ref);
  }

  /** The console's origins (its distribution's URL, and `appBaseUrl` when it serves the console elsewhere). */
  serveAt(origins: readonly string[]): void {
    this.origins = origins;
  }
}
