/** The DynamoDB tables of `shared/tables.ts`, and what each access level of the route table grants on them. */
import { RemovalPolicy } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import type { Construct } from "constructs";
import type { RouteAccess } from "../shared/routes.js";
import { EVENT_KEY_PREFIXES, eventsTable, idempotencyTable, mainTable, type TableDef } from "../shared/tables.js";
import { StackPart } from "./part.js";

/**
 * IAM actions per access level. TransactWriteItems has no action of its own: IAM checks each item's action. No
 * BatchGetItem: no function sends one (the test run's IAM check lists grants nothing uses, docs/iam.md).
 */
export const TABLE_ACTIONS = {
  read: ["dynamodb:GetItem", "dynamodb:Query"],
  write: ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"],
} as const;

/** What Powertools' DynamoDB persistence layer sends: PutItem (in progress), GetItem, UpdateItem (done), DeleteItem (failed). */
export const IDEMPOTENCY_ACTIONS = ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"] as const;

export class Tables extends StackPart {
  readonly main: dynamodb.Table;
  readonly events: dynamodb.Table;
  /** Idempotency-Key records (shared/idempotency.ts), for the functions with a POST route only. */
  readonly idempotency: dynamodb.Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.main = buildTable(this, mainTable);
    this.events = buildTable(this, eventsTable);
    this.idempotency = buildTable(this, idempotencyTable);
  }

  /** Exactly the actions `access` implies, on exactly the table (and, for reads, its indexes). */
  grant(role: iam.Role, access: RouteAccess): void {
    const tables = [
      { name: "Main", table: this.main, def: mainTable, level: access.main },
      { name: "Events", table: this.events, def: eventsTable, level: access.events },
    ];
    for (const { name, table, def, level } of tables) {
      if (!level) continue;
      if (level === "read" || level === "readwrite") {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({ sid: `${name}Read`, actions: [...TABLE_ACTIONS.read], resources: [table.tableArn] }),
        );
        // An index is only ever queried (GetItem names no index). Index ARNs one by one rather than `index/*`.
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            sid: `${name}QueryIndexes`,
            actions: ["dynamodb:Query"],
            resources: def.indexes.map((i) => `${table.tableArn}/index/${i.name}`),
          }),
        );
      }
      if ((level === "write" || level === "readwrite") && table === this.events) {
        for (const statement of appendOnly(table)) role.addToPrincipalPolicy(statement);
      } else if (level === "write" || level === "readwrite") {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({ sid: `${name}Write`, actions: [...TABLE_ACTIONS.write], resources: [table.tableArn] }),
        );
      }
    }
    if (access.idempotency) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid: "IdempotencyRecords", actions: [...IDEMPOTENCY_ACTIONS], resources: [this.idempotency.tableArn] }),
      );
    }
  }
}

/** An IAM condition: every item the request touches has a partition key starting with one of `prefixes`. */
export const leadingKeys = (prefixes: readonly string[]) => ({
  "ForAllValues:StringLike": { "dynamodb:LeadingKeys": prefixes.map((p) => `${p}*`) },
});

/**
 * Writing to the trail is appending (DESIGN.md §13): a new event item or activity marker (`PutItem` on those keys only; the
 * code's `attribute_not_exists` condition keeps it from replacing one, IAM has no key for conditions) and
 * its counters (`UpdateItem` on counter keys only). No `DeleteItem`, and no `UpdateItem` of an event.
 */
export function appendOnly(table: dynamodb.ITable): iam.PolicyStatement[] {
  return [
    new iam.PolicyStatement({
      sid: "EventsAppend",
      actions: ["dynamodb:PutItem"],
      resources: [table.tableArn],
      conditions: leadingKeys(EVENT_KEY_PREFIXES.appended),
    }),
    new iam.PolicyStatement({
      sid: "EventsCount",
      actions: ["dynamodb:UpdateItem"],
      resources: [table.tableArn],
      conditions: leadingKeys(EVENT_KEY_PREFIXES.counters),
    }),
  ];
}

/** A table from its definition in `shared/tables.ts`; every key attribute is a string there. */
function buildTable(scope: Construct, def: TableDef): dynamodb.Table {
  const str = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });
  const table = new dynamodb.Table(scope, `${def.id}Table`, {
    partitionKey: str(def.partitionKey),
    ...(def.sortKey !== undefined && { sortKey: str(def.sortKey) }),
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    encryption: dynamodb.TableEncryption.AWS_MANAGED,
    removalPolicy: RemovalPolicy.RETAIN,
    ...(def.ttlAttribute !== undefined && { timeToLiveAttribute: def.ttlAttribute }),
    ...(def.stream && { stream: dynamodb.StreamViewType.NEW_IMAGE }),
  });
  for (const index of def.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: str(index.partitionKey),
      sortKey: str(index.sortKey),
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }
  return table;
}
