/**
 * The user pool's own functions and mail, deployed (docs/contract/people.md; the list is shared/pool-triggers.ts):
 * - one function per trigger, attached to the pool (`LambdaConfig`): CustomMessage writes every mail the pool
 *   sends, PostAuthentication records sign-ins, PostConfirmation password resets;
 * - the user-activity export (Plus plan, `userAuthEvents` at INFO) to a log group of its own, whose subscription
 *   filter hands every batch to the activity function: failed sign-ins and password changes, which no trigger sees;
 * - with `poolMail: "ses"` (`-c poolMail=ses`), the pool's `EmailConfiguration` on the stack's SES identity and
 *   configuration set (DEVELOPER), so its mail goes out as the service's mail does, bounces and complaints to the
 *   same topic. Cognito refuses an identity that is not verified yet: until it is, the pool uses its own sender
 *   (docs/deploy.md, checklist step 3).
 * Each function has its own role and log group, as the API's do, granted exactly what it does; its alarms (errors,
 * throttles) are the monitoring stack's, with every other function's (infra/monitoring.ts).
 *
 * The functions live in two nested stacks, so that the stack stays under CloudFormation's 500 resources: the
 * triggers', which the pool refers to (its `LambdaConfig`), and the export's, which refers to the pool (its id, its
 * ARN). One stack for both would make a cycle. What names the pool and a function at once stays in this stack:
 * the permissions for Cognito to invoke the triggers.
 */
import { Duration, NestedStack, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as cognito from "aws-cdk-lib/aws-cognito";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import { LambdaDestination } from "aws-cdk-lib/aws-logs-destinations";
import { Construct } from "constructs";
import { POOL_ACTIVITY_HANDLER, type PoolTrigger, type TriggersOf, triggersOf } from "../shared/pool-triggers.js";
import { type RouteAccess, USER_ACTIONS } from "../shared/routes.js";
import { type Environment, environment } from "../shared/settings.js";
import { API_MEMORY_MB, BUNDLING, bundlingDefine, functionId, handlerCode } from "./api-function.js";
import type { Tables } from "./tables.js";

/** Who sends the pool's mail: Cognito's own sender (capped, no bounce alarms), or the stack's SES identity. */
export type PoolMail = "cognito" | "ses";

export interface PoolTriggersProps {
  readonly userPool: cognito.UserPool;
  readonly tables: Tables;
  /** Environment every function gets (tables, Powertools settings). */
  readonly commonEnv: Environment;
  /** The console's origin: the link in every mail. */
  readonly appBaseUrl: string;
  readonly logRetention: logs.RetentionDays;
  /** Days an event is kept (docs/trail.md): the functions that record one set its TTL. */
  readonly eventRetentionDays: number;
  /** The stack's SES identity and configuration set, for `poolMail: "ses"`. */
  readonly mail: {
    readonly poolMail: PoolMail;
    readonly senderEmail: string;
    readonly senderIdentityArn: string;
    readonly configurationSetName: string;
  };
}

/** The triggers whose functions are deployed here (the SSO ones: infra/sso-triggers.ts). */
type OwnTrigger = TriggersOf<"pool">;

/** What each function does, for its role and its description. */
interface Spec {
  readonly purpose: string;
  readonly access: Pick<RouteAccess, "main" | "events" | "users">;
  readonly environment: Environment;
  readonly memorySize: number;
  readonly timeout: Duration;
}

export class PoolTriggers extends Construct {
  /** Every function here by handler name (`pool/custom-message`, …), for the alarms and the IAM check. */
  readonly functionsByHandler = new Map<string, NodejsFunction>();
  /** The function of each trigger. */
  readonly triggers = new Map<PoolTrigger, NodejsFunction>();
  /** The activity export's log group and its subscriber. */
  readonly activityLogGroup: logs.LogGroup;
  readonly activityFunction: NodejsFunction;
  readonly logDelivery: cognito.CfnLogDeliveryConfiguration;
  /** The triggers' functions; the export, its log group and its subscriber. */
  readonly triggerStack: NestedStack;
  readonly activityStack: NestedStack;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: PoolTriggersProps,
  ) {
    super(scope, id);
    const retention = { EVENT_RETENTION_DAYS: String(props.eventRetentionDays) };
    // Cognito waits 5 seconds for a trigger, and a sign-in waits for it: the API functions' memory, for their cold start.
    const onSignIn = { memorySize: API_MEMORY_MB, timeout: Duration.seconds(5) };
    const specs: Record<OwnTrigger, Spec> = {
      CustomMessage: {
        purpose: "writes every mail the user pool sends (CustomMessage trigger)",
        access: {},
        environment: { APP_BASE_URL: props.appBaseUrl },
        ...onSignIn,
      },
      PostAuthentication: {
        purpose: "records each sign-in in the person's trail (PostAuthentication trigger)",
        access: { events: ["append"] },
        environment: retention,
        ...onSignIn,
      },
      PostConfirmation: {
        purpose: "records a password reset in the person's trail (PostConfirmation trigger)",
        access: { events: ["append"] },
        environment: retention,
        ...onSignIn,
      },
    };
    this.triggerStack = new NestedStack(this, "Triggers", { description: "The user pool's triggers (shared/pool-triggers.ts)" });
    // The pool's own triggers of its one list (shared/pool-triggers.ts); the SSO ones are infra/sso-triggers.ts's.
    for (const [trigger, handler] of triggersOf("pool")) {
      const fn = this.fn(this.triggerStack, handler, specs[trigger]);
      props.userPool.addTrigger(cognito.UserPoolOperation.of(trigger), fn);
      this.triggers.set(trigger, fn);
    }

    // ---- The user-activity export and its subscriber ----
    const stack = Stack.of(this);
    this.activityStack = new NestedStack(this, "ActivityExport", {
      description: "The user pool's user-activity export and the function that records what no trigger sees",
    });
    const exportScope = this.activityStack;
    this.activityLogGroup = new logs.LogGroup(exportScope, "UserActivityLogs", {
      // The prefix CloudWatch Logs gives vended logs (a resource policy of the log delivery service covers them).
      logGroupName: `/aws/vendedlogs/cognito/${stack.stackName}/user-activity`,
      retention: props.logRetention,
      // The trail keeps what matters of it; the export itself is operational.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const policy = this.activityLogGroup.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: "CognitoUserActivityDelivery",
        principals: [new iam.ServicePrincipal("delivery.logs.amazonaws.com")],
        actions: ["logs:CreateLogStream", "logs:PutLogEvents"],
        resources: [this.activityLogGroup.logGroupArn],
        conditions: {
          StringEquals: { "aws:SourceAccount": stack.account },
          ArnLike: { "aws:SourceArn": stack.formatArn({ service: "logs", resource: "*" }) },
        },
      }),
    );
    this.logDelivery = new cognito.CfnLogDeliveryConfiguration(exportScope, "UserActivityExport", {
      userPoolId: props.userPool.userPoolId,
      logConfigurations: [
        {
          eventSource: "userAuthEvents",
          logLevel: "INFO",
          cloudWatchLogsConfiguration: { logGroupArn: this.activityLogGroup.logGroupArn },
        },
      ],
    });
    if (policy.policyDependable) this.logDelivery.node.addDependency(policy.policyDependable);

    this.activityFunction = this.fn(exportScope, POOL_ACTIVITY_HANDLER, {
      purpose: "records failed sign-ins and password changes from the user pool's activity export",
      // The trail, a marker per export record in the main table (a redelivery records nothing), and the person's
      // attributes as the pool holds them.
      access: { events: ["append"], main: ["PutItem"], users: "read" },
      environment: { ...retention, USER_POOL_ID: props.userPool.userPoolId },
      memorySize: 256,
      timeout: Duration.seconds(30),
    });
    new logs.SubscriptionFilter(exportScope, "UserActivitySubscription", {
      logGroup: this.activityLogGroup,
      destination: new LambdaDestination(this.activityFunction),
      filterPattern: logs.FilterPattern.allEvents(),
    });

    // ---- The pool's mail through the stack's SES identity ----
    if (props.mail.poolMail === "ses") {
      const pool = props.userPool.node.defaultChild as cognito.CfnUserPool;
      pool.emailConfiguration = {
        emailSendingAccount: "DEVELOPER",
        sourceArn: props.mail.senderIdentityArn,
        from: `Institution Admin <${props.mail.senderEmail}>`,
        configurationSet: props.mail.configurationSetName,
      };
    }
  }

  /** A function in `scope` of its own role and log group, granted exactly `spec.access`. */
  private fn(scope: Construct, handler: string, spec: Spec): NodejsFunction {
    const id = functionId(handler);
    const p = this.props;
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, { retention: p.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: `Runs functions/${handler}.ts`,
    });
    logGroup.grantWrite(role);
    p.tables.grant(role, spec.access);
    if (spec.access.users) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid: "UserPool", actions: [...USER_ACTIONS[spec.access.users]], resources: [p.userPool.userPoolArn] }),
      );
    }
    Validations.of(role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason: "Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.",
    });
    const created = new NodejsFunction(scope, id, {
      ...handlerCode(handler),
      memorySize: spec.memorySize,
      timeout: spec.timeout,
      role,
      logGroup,
      tracing: lambda.Tracing.ACTIVE,
      description: `${handler}: ${spec.purpose}`,
      environment: environment({ ...p.commonEnv, ...spec.environment }),
      // No route: no Idempotency-Key, so no idempotency middleware in the bundle.
      bundling: { ...BUNDLING, define: bundlingDefine(false) },
    });
    this.functionsByHandler.set(handler, created);
    return created;
  }
}
