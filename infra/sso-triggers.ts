/**
 * The user pool's triggers of a federated sign-in (docs/sso.md#signing-in): pre sign-up (trust and
 * linking), pre token generation (trust, JIT, the sign-in's event) and pre authentication (require SSO), each a
 * function of its own (functions/sso/pre-*.ts) with a role that may do exactly what it does:
 * - the main table read (the provider's institution, the domain's guard, the institution, the connection) and, for
 *   the two that record or grant, written; the trail appended to;
 * - on the pool's ARN alone, its Cognito calls (`TRIGGER_ACTIONS`).
 *
 * The pool names its triggers and the triggers' grants name the pool, so the grants are a policy of their own
 * (`iam.Policy`), which the functions do not wait for: no circle in CloudFormation's graph. The functions read the
 * pool's id from the event, not from their environment, for the same reason.
 */
import { Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import type * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as cognito from "aws-cdk-lib/aws-cognito";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { ssoTriggerFailuresMetric } from "../shared/observability.js";
import { type POOL_TRIGGERS, type TriggersOf, triggersOf } from "../shared/pool-triggers.js";
import type { RouteAccess } from "../shared/routes.js";
import { type Environment, environment } from "../shared/settings.js";
import { API_MEMORY_MB, BUNDLING, bundlingDefine, functionId, handlerCode } from "./api-function.js";
import { failureCount } from "./monitoring.js";
import { StackPart } from "./part.js";
import type { Tables } from "./tables.js";

/** The SSO triggers' handlers (shared/pool-triggers.ts). */
export type TriggerHandler = (typeof POOL_TRIGGERS)[TriggersOf<"sso">];

/** Each trigger's Cognito calls on the pool, and nothing else (shared/sso/federation.ts makes them). */
export const TRIGGER_ACTIONS: Record<TriggerHandler, readonly string[]> = {
  "sso/pre-sign-up": ["cognito-idp:ListUsers", "cognito-idp:AdminLinkProviderForUser"],
  "sso/pre-token-generation": ["cognito-idp:AdminUpdateUserAttributes"],
  "sso/pre-authentication": [],
};

/** What each trigger does to the tables. */
export const TRIGGER_ACCESS: Readonly<Record<TriggerHandler, RouteAccess>> = {
  // Reads the provider, the guard, the institution and the connection; a refusal is an event.
  "sso/pre-sign-up": { main: ["GetItem"], events: ["append"] },
  // Membership on first sign-in (the door's access records, markers and the institution's seats) and its events. A
  // sign-in only grants: it lists nothing (no Query) and keeps no seat it must check (no ConditionCheckItem).
  "sso/pre-token-generation": { main: ["GetItem", "PutItem", "UpdateItem"], events: ["append"] },
  // Reads only.
  "sso/pre-authentication": { main: ["GetItem"] },
};

export interface SsoTriggersProps {
  readonly userPool: cognito.UserPool;
  readonly tables: Tables;
  readonly environment: Environment;
  readonly logRetention: logs.RetentionDays;
}

export class SsoTriggers extends StackPart {
  readonly functions = new Map<TriggerHandler, NodejsFunction>();
  /**
   * Each trigger's function and its unexpected failures: the count of its log group's ERROR lines, by a metric
   * filter made beside the log group. The Monitoring stack alarms on both (infra/monitoring.ts).
   */
  readonly watched = new Map<TriggerHandler, { readonly fn: NodejsFunction; readonly failures: cloudwatch.Metric }>();

  constructor(scope: Construct, id: string, props: SsoTriggersProps) {
    super(scope, id);
    // Which trigger runs which module: the pool's one list (shared/pool-triggers.ts).
    for (const [trigger, handler] of triggersOf("sso")) {
      const operation = cognito.UserPoolOperation.of(trigger);
      const fnId = functionId(handler);
      const logGroup = new logs.LogGroup(this, `${fnId}Logs`, { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
      const failures = failureCount(logGroup, `${fnId}Failures`, ssoTriggerFailuresMetric(trigger));
      const role = new iam.Role(this, `${fnId}Role`, {
        assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
        description: `Runs functions/${handler}.ts`,
      });
      logGroup.grantWrite(role);
      props.tables.grant(role, TRIGGER_ACCESS[handler]);
      Validations.of(role).acknowledge({
        id: "AwsSolutions-IAM5[Resource::*]",
        reason: "Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.",
      });
      const fn = new NodejsFunction(this, fnId, {
        ...handlerCode(handler),
        memorySize: API_MEMORY_MB,
        // Cognito waits 5 seconds for a trigger, then fails the sign-in.
        timeout: Duration.seconds(5),
        role,
        logGroup,
        tracing: lambda.Tracing.ACTIVE,
        description: `${handler}: the user pool's ${operation.operationName} trigger (SSO sign-in)`,
        environment: environment({ ...props.environment, POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: "false" }),
        bundling: { ...BUNDLING, define: bundlingDefine(false) },
      });
      const actions: readonly string[] = TRIGGER_ACTIONS[handler];
      if (actions.length > 0) {
        // Its own policy: the pool depends on the function, and this policy on the pool, but the function not on it.
        new iam.Policy(this, `${fnId}PoolPolicy`, {
          roles: [role],
          statements: [new iam.PolicyStatement({ sid: "UserPool", actions: [...actions], resources: [props.userPool.userPoolArn] })],
        });
      }
      props.userPool.addTrigger(operation, fn);
      this.functions.set(handler, fn);
      this.watched.set(handler, { fn, failures });
    }
  }
}
