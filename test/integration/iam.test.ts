/**
 * IAM, proven from here (DESIGN.md §16, docs/iam.md). Every file's function requests are recorded and checked
 * against the synthesized roles when the run ends (test/support/global-setup.ts); this file makes sure the
 * scheduled digest run is among them, and shows the check itself: the same simulator denies what the roles do
 * not grant, the digester's progress included before its grant was fixed.
 */
import { describe, expect, it } from "vitest";
import { asFunction } from "../../infra/local/function-scope.js";
import { LOCAL_MAIL_FROM } from "../../infra/local/stack.js";
import type { Caller } from "../../shared/caller.js";
import { eventKeys } from "../../shared/tables.js";
import { runDigester } from "../../shared/trail/digester.js";
import { localSignerFromEnv } from "../../shared/trail/local-signer.js";
import { build } from "../infra/support.js";
import { stack, uniq } from "../support/api.js";
import { evaluate, type FunctionPolicies, readRecorded, rolePolicies } from "../support/iam.js";
import { seedEvents } from "../support/seed-events.js";

const HOUR = 3_600_000;
const names = { region: stack.region, tables: stack.tables, mailFrom: LOCAL_MAIL_FROM, userPoolId: stack.userPoolId };
const table = (name: string) => `arn:aws:dynamodb:${stack.region}:123456789012:table/${name}`;

let policies: Map<string, FunctionPolicies> | undefined;
function roles(): Map<string, FunctionPolicies> {
  if (!policies) {
    const { stack: synthesized, resources } = build({}, { id: "IamTest", validate: false });
    policies = new Map(rolePolicies(names, synthesized, resources).map((p) => [p.handler, p]));
  }
  return policies;
}
const role = (handler: string) => roles().get(handler) as FunctionPolicies;

describe("the digest function's requests", () => {
  it("a scheduled run (progress saved at DIGESTER) is recorded, and its role allows every request", async () => {
    const account = uniq("iam");
    const caller: Caller = {
      id: uniq("actor"),
      email: "a@example.com",
      name: "A",
      accountId: account,
      isCohortSuperAdmin: true,
      emailVerified: true,
      ip: "192.0.2.7",
    };
    const hour = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    await seedEvents([
      { caller, event: { type: "institution_created", details: { institution_id: "I1", name: "C" } }, at: new Date(hour + 60_000) },
    ]);
    // As EventBridge Scheduler runs it: no `until`, so it saves its progress.
    const written = await asFunction("trail/digest", () =>
      runDigester({ now: new Date(), signer: localSignerFromEnv(), from: hour, accounts: [account] }),
    );
    expect(written.map((d) => d.account_id)).toEqual([account]);

    const mine = readRecorded(stack.awsRequestLog).filter((r) => r.fn === "trail/digest");
    const progress = mine.find(
      (r) => r.action === "dynamodb:PutItem" && r.context["dynamodb:LeadingKeys"]?.includes(eventKeys.digester.pk),
    );
    expect(progress, JSON.stringify(mine)).toBeDefined();
    for (const r of mine) expect([r.action, (await evaluate(role("trail/digest"), r)).decision]).toEqual([r.action, "Allowed"]);
  });
});

describe("the simulator on the synthesized roles", () => {
  it("denies what a role does not grant: the trail is append-only, the main table is not the digester's", async () => {
    const put = (keys: string[]) => ({
      action: "dynamodb:PutItem",
      resource: table(stack.tables.events),
      context: { "dynamodb:LeadingKeys": keys },
    });
    // The digest function's grant before this fix allowed DIGEST#/DIGESTSEQ# only: the progress put was refused.
    const before: FunctionPolicies = {
      handler: "trail/digest",
      statements: role("trail/digest").statements.filter((s) => s.Sid !== "SaveProgress"),
    };
    expect((await evaluate(before, put(["DIGESTER"]))).decision).toBe("ImplicitlyDenied");
    expect((await evaluate(role("trail/digest"), put(["DIGESTER"]))).decision).toBe("Allowed");
    expect((await evaluate(role("trail/digest"), put(["DIGEST#…"]))).decision).toBe("Allowed");
    // Not an event, nor any other function's item.
    expect((await evaluate(role("trail/digest"), put(["EVT#…"]))).decision).toBe("ImplicitlyDenied");
    expect((await evaluate(role("trail/digest"), { ...put(["INST#…"]), resource: table(stack.tables.main) })).decision).toBe(
      "ImplicitlyDenied",
    );
    // A route function may append an event, never delete or overwrite one, nor write a digest.
    const create = role("institutions/create");
    expect((await evaluate(create, put(["EVT#…", "ACTIVE#…"]))).decision).toBe("Allowed");
    expect((await evaluate(create, put(["EVT#…", "DIGEST#…"]))).decision).toBe("ImplicitlyDenied");
    expect((await evaluate(create, { ...put(["EVT#…"]), action: "dynamodb:DeleteItem" })).decision).toBe("ImplicitlyDenied");
    expect((await evaluate(create, { ...put(["EVT#…"]), action: "dynamodb:UpdateItem" })).decision).toBe("ImplicitlyDenied");
  });
});

describe("the machines' API's functions (DESIGN.md §19), in their nested stack", () => {
  it("are judged like the others: the key authorizer reads key lookups and notes keys' last use, nothing else; the refusal touches no table", async () => {
    const main = table(stack.tables.main);
    const ask = (handler: string, action: string, keys: string[]) =>
      evaluate(role(handler), { action, resource: main, context: { "dynamodb:LeadingKeys": keys } });
    expect((await ask("api-keys/authorizer", "dynamodb:GetItem", ["APIKEYHASH#ab12"])).decision).toBe("Allowed");
    expect((await ask("api-keys/authorizer", "dynamodb:UpdateItem", ["APIKEYS#01M84M2ES7DTY37NE05PPBJBQG"])).decision).toBe("Allowed");
    // Not an institution, an access record, another key's lookup item rewritten, nor a Query or a delete.
    expect((await ask("api-keys/authorizer", "dynamodb:GetItem", ["INST#01M84M2ES7DTY37NE05PPBJBQG"])).decision).toBe("ImplicitlyDenied");
    expect((await ask("api-keys/authorizer", "dynamodb:UpdateItem", ["INST#01M84M2ES7DTY37NE05PPBJBQG"])).decision).toBe(
      "ImplicitlyDenied",
    );
    expect((await ask("api-keys/authorizer", "dynamodb:UpdateItem", ["APIKEYHASH#ab12"])).decision).toBe("ImplicitlyDenied");
    expect((await ask("api-keys/authorizer", "dynamodb:DeleteItem", ["APIKEYS#x"])).decision).toBe("ImplicitlyDenied");
    expect((await ask("api-keys/authorizer", "dynamodb:Query", ["APIKEYS#x"])).decision).toBe("ImplicitlyDenied");
    expect((await ask("api-keys/refused", "dynamodb:GetItem", ["APIKEYHASH#ab12"])).decision).toBe("ImplicitlyDenied");
  });
});
