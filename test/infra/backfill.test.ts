/**
 * The upgrade's backfill of the senders' records of invitations in the synthesized template (infra/backfill.ts,
 * docs/operations.md): a custom resource that CloudFormation runs once (its properties are fixed), after every API
 * function (which write the records themselves) is deployed; its function may Scan the one index it reads and put
 * items of a person's partition, nothing else; the main table keeps that index in this release.
 */
import type { CfnResource } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { BACKFILL_HANDLER, BACKFILL_RUN } from "../../infra/backfill.js";
import { mainTable } from "../../shared/tables.js";
import { build, type Json, newApp } from "./support.js";

const first = build({}, { validate: false, app: newApp() });
const { stack, resources, logicalId, ofType } = first;
const backfill = stack.sentRecordsBackfill;
const crId = logicalId(backfill.resource);
const fnId = logicalId(backfill.function);
const mainId = logicalId(stack.mainTable);
const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

describe("the senders' records backfill", () => {
  it("is a custom resource with fixed properties, so a second synth (a later deploy) sends it no update", () => {
    expect(resources[crId].Type).toBe("Custom::SentRecordsBackfill");
    const { ServiceToken: _token, ...props } = resources[crId].Properties;
    expect(props).toEqual({ Run: BACKFILL_RUN });
    const second = build({}, { validate: false, app: newApp() });
    expect(second.resources[crId]).toEqual(resources[crId]);
  });

  it("runs after every API function, those that send and resend invitations among them", () => {
    const dependsOn: string[] = resources[crId].DependsOn ?? [];
    for (const [handler, fn] of stack.functions) expect(dependsOn, handler).toContain(logicalId(fn));
    expect(dependsOn).toContain(logicalId(stack.functions.get("invitations/create") as never));
    expect(dependsOn).toContain(logicalId(stack.functions.get("invitations/resend") as never));
  });

  it("may Scan only the sender index and put only items of a person's partition, with its logs kept", () => {
    const roleId = stack.getLogicalId(backfill.function.role?.node.defaultChild as CfnResource);
    const statements: Json[] = ofType("AWS::IAM::Policy")
      .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    const tableArn = { "Fn::GetAtt": [mainId, "Arn"] };
    expect(statements.filter((s) => asList<string>(s.Action).some((a) => !a.startsWith("logs:")))).toEqual([
      {
        Sid: "ScanActiveInvitations",
        Effect: "Allow",
        Action: "dynamodb:Scan",
        Resource: { "Fn::Join": ["", [tableArn, "/index/by_invitation_sender"]] },
      },
      {
        Sid: "PutSentRecords",
        Effect: "Allow",
        Action: "dynamodb:PutItem",
        Resource: tableArn,
        Condition: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["USER#*"] } },
      },
    ]);
    const fn = resources[fnId];
    expect(fn.Properties.Description).toMatch(new RegExp(`^${BACKFILL_HANDLER}: `));
    expect(fn.Properties.Timeout).toBe(900);
    expect(fn.Properties.Environment.Variables.MAIN_TABLE).toEqual({ Ref: mainId });
    const group = resources[fn.Properties.LoggingConfig.LogGroup.Ref];
    expect(group.Properties.RetentionInDays).toBeGreaterThan(0);
    const provider = ofType("AWS::Lambda::Function").filter(([id]) => id !== fnId && JSON.stringify(resources[id]).includes(fnId));
    expect(provider).toHaveLength(1);
    const [[, framework]] = provider as [[string, Json]];
    expect(resources[framework.Properties.LoggingConfig.LogGroup.Ref].Properties.RetentionInDays).toBe(group.Properties.RetentionInDays);
  });

  it("reads an index the main table still has in this release (dropped in the next: docs/operations.md)", () => {
    expect(mainTable.indexes.map((i) => i.name)).toContain("by_invitation_sender");
    const indexes = resources[mainId].Properties.GlobalSecondaryIndexes.map((i: Json) => i.IndexName);
    expect(indexes).toContain("by_invitation_sender");
  });
});
