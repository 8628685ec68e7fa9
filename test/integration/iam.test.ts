/**
 * IAM, proven from here (docs/iam.md). Every file's function requests are recorded and checked
 * against the synthesized roles when the run ends (test/support/global-setup.ts); this file makes sure the
 * scheduled digest run is among them, and shows the check itself: the same simulator denies what the roles do
 * not grant, the digester's progress included before its grant was fixed.
 *
 * Least privilege, measured: a full run fails on a grant of an API function that no request used. Two kinds of
 * request the functions make are on paths the other files take for a few routes only, so they are made here for
 * every route that has them: the Idempotency-Key records of every POST function (kept, completed and released),
 * and the event a caller past the probing bound gets on every route only a cohort super admin may call. And the
 * user pool's SSO calls (a connection's CreateIdentityProvider and UpdateUserPoolClient, a linking sign-in's
 * AdminLinkProviderForUser) are made here once, so that any run of this file judges them on the pool's ARN.
 */
import { readFileSync } from "node:fs";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { handler as preSignUp } from "../../functions/sso/pre-sign-up.js";
import { APP_CLIENT_HANDLER } from "../../infra/app-client.js";
import { asFunction } from "../../infra/local/function-scope.js";
import { minuteOf } from "../../shared/bounds.js";
import type { Caller } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { IDEMPOTENCY_HEADER, isStored, payloadOf, persistence } from "../../shared/idempotency.js";
import { idempotencyTable } from "../../shared/idempotency-table.js";
import { TOO_MANY_REFUSALS } from "../../shared/refusals.js";
import { paths, type Route, routeKey, routes, takesIdempotencyKey } from "../../shared/routes.js";
import { eventKeys } from "../../shared/tables.js";
import { runDigester } from "../../shared/trail/digester.js";
import { localSignerFromEnv } from "../../shared/trail/local-signer.js";
import { build } from "../infra/support.js";
import { type CallOptions, call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution, inviteMailed } from "../support/flows.js";
import { DEPLOYED_ONLY, evaluate, type FunctionPolicies, localNames, readRecorded, rolePolicies } from "../support/iam.js";
import { seedEvents } from "../support/seed-events.js";
import { challengeOf, idpServer, publishTxt, samlMetadata } from "../support/sso.js";
import { userIdOf } from "./helpers.js";

const HOUR = 3_600_000;
const names = localNames(stack);
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

/** This run's requests of `handler` so far, each with what its role answers. */
async function requestsOf(handler: string) {
  const mine = readRecorded(stack.awsRequestLog).filter((r) => r.fn === handler);
  return Promise.all(mine.map(async (r) => ({ ...r, decision: (await evaluate(role(handler), r)).decision })));
}

describe("every POST function's Idempotency-Key records", () => {
  let owner: string;
  let ownerId: string;
  let inst: { id: string };
  beforeAll(async () => {
    owner = await token(uniqEmail("iam-owner"), { superAdmin: true, account: uniq("iam-acct") });
    ownerId = await userIdOf(owner);
    inst = await createInstitution(owner);
  });

  /**
   * One request of each POST route, in the most telling shape for the records: its key held by an invocation
   * whose time ran out (the record written as that invocation would, a minute before its timeout, and the request
   * sent a minute and a second later), so the function releases it (DeleteItem), saves its own (PutItem) and
   * stores its answer (UpdateItem).
   */
  async function keyed(
    route: Route,
    req: { caller: string; token?: string; params?: Record<string, string>; body?: unknown; query?: Record<string, string> },
  ) {
    const key = uniq("iam-key");
    const path = Object.entries(req.params ?? {}).reduce((p, [k, v]) => p.replace(`{${k}}`, v), route.path);
    const payload = payloadOf(req.caller, routeKey(route), key, {
      params: req.params ?? {},
      query: req.query ?? {},
      body: req.body ?? null,
    });
    await persistence(idempotencyTable).saveInProgress(payload, 60_000);
    const opts: CallOptions = {
      ...(req.token !== undefined && { token: req.token }),
      ...(req.body !== undefined && { body: req.body }),
      ...(req.query !== undefined && { query: req.query }),
      headers: { [IDEMPOTENCY_HEADER]: key },
      clockOffsetMs: 61_000,
    };
    const res = await call(route.method, path, opts);
    expect(isStored(res.status), `${routeKey(route)} answered ${res.status} ${res.text}`).toBe(true);
    // The invocation that ran out was taken over: the record is this request's, completed.
    expect((await persistence(idempotencyTable).getRecord(payload)).getStatus(), routeKey(route)).toBe("COMPLETED");
  }

  it("are kept, completed and released by each, and its role allows each call", async () => {
    const posts = routes.filter(takesIdempotencyKey);
    const route = (handler: string) => posts.find((r) => r.handler === handler) as Route;
    const invitee = uniqEmail("iam-invitee");
    const forInvitee = await inviteMailed(owner, inst.id, invitee);
    const inviteeToken = await token(invitee);
    const owned = { caller: ownerId, token: owner };
    // What each POST function is sent: an answer the action gives (a refusal of the body is one), never a 409.
    const cases: Record<string, () => Promise<void>> = {
      "institutions/create": () => keyed(route("institutions/create"), { ...owned, body: {} }),
      "cohorts/create": () => keyed(route("cohorts/create"), { ...owned, params: { id: inst.id }, body: {} }),
      "administrators/transfer": () => keyed(route("administrators/transfer"), { ...owned, params: { id: inst.id }, body: {} }),
      "invitations/create": () => keyed(route("invitations/create"), { ...owned, body: {} }),
      // An invitation it does not have: 404 (a resend of a fresh one would wait for its cooldown: 429, not kept).
      "invitations/resend": () =>
        keyed(route("invitations/resend"), { ...owned, params: { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }, query: { institution_id: inst.id } }),
      "invitations/preview": async () =>
        keyed(route("invitations/preview"), {
          caller: await userIdOf(inviteeToken),
          token: inviteeToken,
          body: { token: forInvitee.token },
        }),
      "invitations/accept": async () =>
        keyed(route("invitations/accept"), {
          caller: await userIdOf(inviteeToken),
          token: inviteeToken,
          body: { token: forInvitee.token },
        }),
      "exports/create": () => keyed(route("exports/create"), { ...owned, body: {} }),
      "webhooks/create": () => keyed(route("webhooks/create"), { ...owned, body: {} }),
      "scim/connection": () => keyed(route("scim/connection"), { ...owned, params: { id: inst.id }, body: {} }),
      "domains/routes": () => keyed(route("domains/routes"), { ...owned, params: { id: inst.id }, body: {} }),
      "sso/connection": () => keyed(route("sso/connection"), { ...owned, params: { id: inst.id }, body: {} }),
      // A body it refuses (422, kept): a key made here would count against the institution's 20.
      "api-keys/manage": () => keyed(route("api-keys/manage"), { ...owned, params: { id: inst.id }, body: {} }),
      // A person of their own (signing the owner out everywhere would end the owner's sessions): 200, kept.
      "me/sign-out-everywhere": async () => {
        const person = await token(uniqEmail("iam-me"));
        await keyed(route("me/sign-out-everywhere"), { caller: await userIdOf(person), token: person });
      },
    };
    // Every POST function has its case: a new one needs one here.
    expect(Object.keys(cases).sort()).toEqual([...new Set(posts.map((r) => r.handler))].sort());
    // In this order: preview before accept. The public POSTs (open, register, discover) take no key.
    for (const run of Object.values(cases)) await run();

    const idempotency = `arn:aws:dynamodb:${stack.region}:123456789012:table/${stack.tables.idempotency}`;
    for (const handler of Object.keys(cases)) {
      const records = (await requestsOf(handler)).filter((r) => r.resource === idempotency);
      expect(records.map((r) => r.action).sort(), handler).toEqual(
        expect.arrayContaining(["dynamodb:DeleteItem", "dynamodb:PutItem", "dynamodb:UpdateItem"]),
      );
      for (const r of records) expect([r.action, r.decision], handler).toEqual([r.action, "Allowed"]);
    }
  });
});

describe("the probing bound on the routes only a cohort super admin may call", () => {
  it("a caller past it gets 429 and its rate_limit_exceeded event, on each, and the role allows each call", async () => {
    const guarded = routes.filter((r) => r.rule.kind === "cohort_super_admin");
    expect(guarded.length).toBeGreaterThanOrEqual(10);
    await Promise.all(
      guarded.map(async (route) => {
        // A caller of its own, past the bound in this minute and the next (the counter as refusals leave it).
        const probe = await token(uniqEmail("iam-probe"), { account: uniq("iam-probe-acct") });
        const id = await userIdOf(probe);
        const now = Date.now();
        for (const minute of [minuteOf(new Date(now)), minuteOf(new Date(now + 60_000))]) {
          await db.send(
            new UpdateCommand({
              TableName: config.tables.events,
              Key: eventKeys.refusals(id, minute),
              UpdateExpression: "SET refused = :n, #ttl = :ttl",
              ExpressionAttributeNames: { "#ttl": "ttl" },
              ExpressionAttributeValues: { ":n": 1_000_000, ":ttl": Math.floor(now / 1000) + 86_400 },
            }),
          );
        }
        const path = route.path.replace(/\{[^}]+\}/g, "01ARZ3NDEKTSV4RRFFQ69G5FAV");
        const res = await call(route.method, path, { token: probe, ...(route.method === "POST" && { body: {} }) });
        expect({ route: routeKey(route), status: res.status, body: res.body }).toEqual({
          route: routeKey(route),
          status: 429,
          body: { error: TOO_MANY_REFUSALS },
        });
      }),
    );
    const events = `arn:aws:dynamodb:${stack.region}:123456789012:table/${stack.tables.events}`;
    for (const handler of new Set(guarded.map((r) => r.handler))) {
      const appended = (await requestsOf(handler)).filter(
        (r) => r.resource === events && r.action === "dynamodb:PutItem" && r.context["dynamodb:LeadingKeys"]?.includes("EVT#…"),
      );
      expect(appended.length, handler).toBeGreaterThan(0);
      for (const r of appended) expect(r.decision, handler).toBe("Allowed");
    }
  });
});

describe("the deployed-only grants", () => {
  it("are each named with its reason in docs/iam.md, as DEPLOYED_ONLY (test/support/iam.ts) has them", () => {
    const doc = readFileSync(new URL("../../docs/iam.md", import.meta.url), "utf8");
    for (const e of DEPLOYED_ONLY) {
      const line = doc.split("\n").find((l) => l.includes(`\`${e.handler}\``) && l.includes(`\`${e.action}\``));
      expect(line, `${e.handler} ${e.action}`).toBeDefined();
    }
    expect(DEPLOYED_ONLY.filter((e) => role(e.handler)?.api)).toEqual([
      expect.objectContaining({ handler: "exports/create", action: "lambda:InvokeFunction" }),
      expect.objectContaining({ handler: "exports/create", action: "dynamodb:UpdateItem" }),
    ]);
  });
});

describe("the machines' API's functions (docs/api-keys.md), in their nested stack", () => {
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

describe("the user pool's SSO calls (docs/sso.md)", () => {
  it("CreateIdentityProvider, UpdateUserPoolClient and AdminLinkProviderForUser: made on the pool's ARN, and each role allows them", async () => {
    const owner = await token(uniqEmail("iam-sso-owner"), { superAdmin: true, account: uniq("iam-sso") });
    const inst = await createInstitution(owner);
    const domain = `${uniq("iam-sso")}.test`;
    const added = await call("POST", `${paths.institutions}/${inst.id}/domains`, { token: owner, body: { domain } });
    await publishTxt(challengeOf(domain), [added.body.domain.verification.record_value]);
    const verified = await call("POST", `${paths.institutions}/${inst.id}/domains/${added.body.domain.id}/verify`, { token: owner });
    expect(verified.body.domain?.state, verified.text).toBe("verified");
    // The connection (sso/connection): the pool's identity provider, listed on the console's app client.
    const idp = await idpServer();
    try {
      idp.serve("/metadata.xml", samlMetadata({ entityId: `${idp.url}/entity`, ssoUrl: `${idp.url}/sso` }));
      const sso = await call("POST", `${paths.institutions}/${inst.id}/sso`, {
        token: owner,
        body: { type: "saml", metadata_url: `${idp.url}/metadata.xml` },
      });
      expect(sso.status, sso.text).toBe(201);
      // A federated first sign-in of a person the pool has (sso/pre-sign-up, as the pool invokes it): linked.
      const email = `linked.${uniq("p")}@${domain}`;
      await token(email, { account: String(inst.account_id) });
      const provider = sso.body.sso.provider_name as string;
      await asFunction("sso/pre-sign-up", () =>
        preSignUp({
          version: "1",
          region: stack.region,
          userPoolId: stack.userPoolId,
          userName: `${provider}_${uniq("subject")}`,
          callerContext: { awsSdkVersion: "aws-sdk-unknown-unknown", clientId: stack.userPoolClientId },
          triggerSource: "PreSignUp_ExternalProvider",
          request: { userAttributes: { email, name: "Linked Person" }, validationData: {} },
          response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
        }),
      );
    } finally {
      await idp.close();
    }
    const pool = `arn:aws:cognito-idp:${stack.region}:123456789012:userpool/${stack.userPoolId}`;
    const calls = {
      "sso/connection": ["cognito-idp:CreateIdentityProvider", "cognito-idp:UpdateUserPoolClient"],
      "sso/pre-sign-up": ["cognito-idp:AdminLinkProviderForUser"],
    };
    for (const [handler, actions] of Object.entries(calls)) {
      const made = (await requestsOf(handler)).filter((r) => r.action.startsWith("cognito-idp:"));
      for (const action of actions) {
        const mine = made.filter((r) => r.action === action);
        expect(mine.length, `${handler} ${action}`).toBeGreaterThan(0);
        for (const r of mine) expect([r.action, r.resource, r.decision]).toEqual([action, pool, "Allowed"]);
      }
    }
    // Another pool is not theirs.
    for (const [handler, action] of [
      ["sso/connection", "cognito-idp:UpdateUserPoolClient"],
      ["sso/pre-sign-up", "cognito-idp:AdminLinkProviderForUser"],
      [APP_CLIENT_HANDLER, "cognito-idp:UpdateUserPoolClient"],
    ] as const) {
      const elsewhere = {
        action,
        resource: `arn:aws:cognito-idp:${stack.region}:123456789012:userpool/${stack.region}_other`,
        context: {},
      };
      expect((await evaluate(role(handler), elsewhere)).decision, handler).toBe("ImplicitlyDenied");
    }
  });
});
