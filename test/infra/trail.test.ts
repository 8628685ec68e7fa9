/**
 * The deployed trail (infra/trail.ts, docs/trail.md): the KMS signing key and who may use it, the hourly
 * schedule, TTL on the tables, the digest bucket (Object Lock in prod), retention in every function, the
 * public key for the digests route, and the events table's two indexes.
 */
import { describe, expect, it } from "vitest";
import { ENVIRONMENTS, resolveSettings } from "../../infra/settings.js";
import { DIGESTS_HANDLER } from "../../infra/trail.js";
import { handlers } from "../../shared/routes.js";
import { eventsTable } from "../../shared/tables.js";
import { type Built, build, type Json, nagFindings } from "./support.js";

const dev = build({}, { validate: false });
const prod = build({ settings: resolveSettings((k) => (k === "env" ? "prod" : undefined)) }, { id: "ProdTrailStack", validate: false });

/** Every IAM statement of the template, with the logical id of its policy's role(s). */
function statements(b: Built): { roles: string[]; actions: string[]; resources: Json[] }[] {
  return b.ofType("AWS::IAM::Policy").flatMap(([, p]) =>
    (p.Properties.PolicyDocument.Statement as Json[]).map((s) => ({
      roles: (p.Properties.Roles as Json[]).map((r) => r.Ref),
      actions: [s.Action].flat(),
      resources: [s.Resource].flat(),
    })),
  );
}

const keyId = (b: Built) => b.logicalId(b.stack.trail.signingKey);
const roleId = (b: Built, role: { node: { defaultChild?: unknown } }) => b.logicalId(role);

describe("the signing key", () => {
  it("is an asymmetric ECC_NIST_P256 key for signing, kept when the stack goes", () => {
    for (const b of [dev, prod]) {
      const key = b.resources[keyId(b)];
      expect(key.Properties).toMatchObject({ KeySpec: "ECC_NIST_P256", KeyUsage: "SIGN_VERIFY" });
      expect(key.DeletionPolicy).toBe("Retain");
    }
  });

  it("only the digest function may sign, with kms:Sign alone; only the deployment's reader may read the public key", () => {
    for (const b of [dev, prod]) {
      const digestRole = roleId(b, b.stack.trail.digestFunction.role as never);
      const onKey = statements(b).filter((s) => s.actions.some((a) => a.startsWith("kms:")));
      const key = { "Fn::GetAtt": [keyId(b), "Arn"] };
      expect(onKey.find((s) => s.roles.includes(digestRole))).toEqual({ roles: [digestRole], actions: ["kms:Sign"], resources: [key] });
      const others = onKey.filter((s) => !s.roles.includes(digestRole));
      expect(others).toHaveLength(1);
      expect(others[0]).toMatchObject({ actions: ["kms:GetPublicKey"], resources: [key] });
      // The API's functions have no KMS permission at all.
      for (const handler of handlers().keys()) {
        const role = roleId(b, b.stack.functions.get(handler)?.role as never);
        expect(onKey.filter((s) => s.roles.includes(role))).toEqual([]);
      }
    }
  });
});

describe("the digest function", () => {
  it("runs from an EventBridge Scheduler schedule five minutes past every hour", () => {
    for (const b of [dev, prod]) {
      const schedules = b.ofType("AWS::Scheduler::Schedule");
      expect(schedules).toHaveLength(1);
      const props = schedules[0]?.[1].Properties;
      expect(props.ScheduleExpression).toBe("cron(5 * * * ? *)");
      expect(props.State ?? "ENABLED").toBe("ENABLED");
      expect(props.Target.Arn).toEqual({ "Fn::GetAtt": [b.logicalId(b.stack.trail.digestFunction), "Arn"] });
    }
  });

  it("knows the hour, the retention, the key and the bucket", () => {
    for (const [b, days] of [
      [dev, ENVIRONMENTS.dev.eventRetentionDays],
      [prod, ENVIRONMENTS.prod.eventRetentionDays],
    ] as const) {
      const fn = b.resources[b.logicalId(b.stack.trail.digestFunction)];
      expect(fn.Properties.Environment.Variables).toMatchObject({
        EVENT_RETENTION_DAYS: String(days),
        DIGEST_PERIOD_SECONDS: "3600",
        DIGEST_KEY_ARN: { "Fn::GetAtt": [keyId(b), "Arn"] },
        DIGEST_BUCKET: { Ref: b.logicalId(b.stack.trail.bucket) },
      });
    }
  });
});

describe("retention", () => {
  it("is 90 days in dev and 400 in prod, in every function of the API", () => {
    expect([ENVIRONMENTS.dev.eventRetentionDays, ENVIRONMENTS.prod.eventRetentionDays]).toEqual([90, 400]);
    for (const [b, days] of [
      [dev, 90],
      [prod, 400],
    ] as const) {
      for (const handler of handlers().keys()) {
        const fn = b.resources[b.logicalId(b.stack.functions.get(handler) as never)];
        expect(fn.Properties.Environment.Variables.EVENT_RETENTION_DAYS).toBe(String(days));
      }
    }
  });

  it("takes -c eventRetentionDays", () => {
    expect(resolveSettings((k) => (k === "eventRetentionDays" ? "30" : undefined)).eventRetentionDays).toBe(30);
    expect(() => resolveSettings((k) => (k === "eventRetentionDays" ? "0" : undefined))).toThrow(/eventRetentionDays/);
  });

  it("both tables expire items by their ttl attribute", () => {
    for (const b of [dev, prod]) {
      for (const table of [b.stack.mainTable, b.stack.eventsTable]) {
        expect(b.resources[b.logicalId(table)].Properties.TimeToLiveSpecification).toEqual({ AttributeName: "ttl", Enabled: true });
      }
    }
  });

  it("the events table has the table's key and exactly its two indexes (6 WCU per account copy)", () => {
    const props = dev.resources[dev.logicalId(dev.stack.eventsTable)].Properties;
    expect(props.KeySchema).toEqual([
      { AttributeName: "pk", KeyType: "HASH" },
      { AttributeName: "sk", KeyType: "RANGE" },
    ]);
    expect(props.GlobalSecondaryIndexes.map((i: Json) => i.IndexName)).toEqual(eventsTable.indexes.map((i) => i.name));
    expect(eventsTable.indexes).toHaveLength(2);
  });
});

describe("the digest bucket", () => {
  const bucketOf = (b: Built) => b.resources[b.logicalId(b.stack.trail.bucket)];

  it("locks every copy in compliance mode for the retention in prod", () => {
    expect(bucketOf(prod).Properties).toMatchObject({
      ObjectLockEnabled: true,
      ObjectLockConfiguration: { ObjectLockEnabled: "Enabled", Rule: { DefaultRetention: { Mode: "COMPLIANCE", Days: 400 } } },
      VersioningConfiguration: { Status: "Enabled" },
    });
    expect(bucketOf(prod).DeletionPolicy).toBe("Retain");
  });

  it("is private, versioned and unlocked in dev", () => {
    const props = bucketOf(dev).Properties;
    expect(props.ObjectLockEnabled).toBeUndefined();
    expect(props.PublicAccessBlockConfiguration).toMatchObject({ BlockPublicAcls: true, RestrictPublicBuckets: true });
    expect(props.VersioningConfiguration).toEqual({ Status: "Enabled" });
  });

  it("only the digest function writes to it", () => {
    for (const b of [dev, prod]) {
      const writers = statements(b).filter(
        (s) => s.actions.some((a) => a.startsWith("s3:Put")) && JSON.stringify(s.resources).includes(b.logicalId(b.stack.trail.bucket)),
      );
      expect(writers.map((s) => s.roles)).toEqual([[roleId(b, b.stack.trail.digestFunction.role as never)]]);
    }
  });
});

describe("the digests route", () => {
  it("gets the key id and the public key read from KMS at deployment, and nothing to call KMS with", () => {
    for (const b of [dev, prod]) {
      const fn = b.resources[b.logicalId(b.stack.functions.get(DIGESTS_HANDLER) as never)];
      const vars = fn.Properties.Environment.Variables;
      expect(vars.DIGEST_KEY_ID).toEqual({ "Fn::GetAtt": [keyId(b), "Arn"] });
      expect(vars.DIGEST_PUBLIC_KEY).toEqual({
        "Fn::GetAtt": [b.logicalId(b.stack.trail.node.findChild("PublicKey") as never), "PublicKey"],
      });
    }
  });

  it("leaves cdk-nag clean", () => {
    expect(nagFindings(dev.app).filter((f) => f.includes("/Trail/"))).toEqual([]);
    expect(nagFindings(prod.app).filter((f) => f.includes("/Trail/"))).toEqual([]);
  });
});
