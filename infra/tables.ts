/** The DynamoDB tables of `shared/tables.ts`, and the grants of the calls the route table declares on them. */
import { RemovalPolicy } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import type { Construct } from "constructs";
import type { RouteAccess } from "../shared/routes.js";
import { EVENT_KEY_PREFIXES, eventsTable, idempotencyTable, mainTable, type TableDef } from "../shared/tables.js";
import { StackPart } from "./part.js";

/**
 * What Powertools' DynamoDB persistence layer sends (shared/idempotency.ts): PutItem (in progress), UpdateItem
 * (done), DeleteItem (not kept, or an in-progress record whose invocation's time is up). No GetItem: the record
 * that fails the save's condition comes back with that answer (`ALL_OLD`), and a condition fails only on a record
 * that exists, so the utility's own read is never reached (docs/iam.md).
 */
export const IDEMPOTENCY_ACTIONS = ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"] as const;

/** The IAM action of a call of the route table (`GetItem` → `dynamodb:GetItem`). */
const action = (call: string) => `dynamodb:${call}`;

/** `Query <index>` → the index's name. */
const indexOf = (call: string): string | undefined => /^Query (.+)$/.exec(call)?.[1];

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

  /**
   * Exactly the calls `access` declares (shared/routes.ts), on exactly the table and the indexes they name: a read
   * statement (`<Table>Read`), a statement for the queried indexes (`<Table>QueryIndexes`) and one for the writes
   * (`MainWrite`; on the events table `EventsAppend` and `EventsCount`, each on its keys only), each only when it
   * has an action.
   */
  grant(role: iam.Role, access: Pick<RouteAccess, "main" | "events" | "idempotency">): void {
    const tables = [
      { name: "Main", table: this.main, def: mainTable, calls: access.main ?? [] },
      { name: "Events", table: this.events, def: eventsTable, calls: access.events ?? [] },
    ] as const;
    for (const { name, table, def, calls } of tables) {
      const known = def.indexes.map((i) => i.name as string);
      const indexes = calls.flatMap((c) => indexOf(c) ?? []);
      const unknown = indexes.filter((i) => !known.includes(i));
      if (unknown.length > 0) throw new Error(`${name} table has no index ${unknown.join(", ")} (shared/tables.ts)`);
      const reads = calls.filter((c) => c === "GetItem" || c === "BatchGetItem" || c === "Query").map(action);
      if (reads.length > 0) {
        role.addToPrincipalPolicy(new iam.PolicyStatement({ sid: `${name}Read`, actions: reads, resources: [table.tableArn] }));
      }
      // An index is only ever queried (GetItem names no index). Index ARNs one by one rather than `index/*`.
      if (indexes.length > 0) {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            sid: `${name}QueryIndexes`,
            actions: ["dynamodb:Query"],
            resources: indexes.map((i) => `${table.tableArn}/index/${i}`),
          }),
        );
      }
      if (table === this.events) {
        for (const statement of appendOnly(table, calls as readonly string[])) role.addToPrincipalPolicy(statement);
        continue;
      }
      const writes = calls.filter((c) => ["PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem"].includes(c)).map(action);
      if (writes.length > 0) {
        role.addToPrincipalPolicy(new iam.PolicyStatement({ sid: `${name}Write`, actions: writes, resources: [table.tableArn] }));
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
 * Writing to the trail is appending (docs/security.md): `append`, a new event item or activity marker (`PutItem` on
 * those keys only; the code's `attribute_not_exists` condition keeps it from replacing one, IAM has no key for
 * conditions), and `count`, its counters (`UpdateItem` on counter keys only). No `DeleteItem`, and no `UpdateItem`
 * of an event.
 */
export function appendOnly(table: dynamodb.ITable, calls: readonly string[]): iam.PolicyStatement[] {
  return [
    ...(calls.includes("append")
      ? [
          new iam.PolicyStatement({
            sid: "EventsAppend",
            actions: ["dynamodb:PutItem"],
            resources: [table.tableArn],
            conditions: leadingKeys(EVENT_KEY_PREFIXES.appended),
          }),
        ]
      : []),
    ...(calls.includes("count")
      ? [
          new iam.PolicyStatement({
            sid: "EventsCount",
            actions: ["dynamodb:UpdateItem"],
            resources: [table.tableArn],
            conditions: leadingKeys(EVENT_KEY_PREFIXES.counters),
          }),
        ]
      : []),
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
