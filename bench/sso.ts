/**
 * Round trips of signing in with an institution (docs/sso.md, "Measured"): home-realm discovery over the gateway,
 * and a JIT sign-in's pre token generation (functions/sso/pre-token-generation.ts, the handler module the pool
 * invokes, run in this process as the pool would), each on fresh data, its DynamoDB requests counted at the SDK.
 * The institution's verified domain, connection and provider item are written as the domain and connection routes
 * write them (their own tests exercise the routes; here only the sign-in's reads count).
 *
 * The floor is the design: discover reads the guard, then the institution and its connection side by side (three
 * GetItems, two round trips); a JIT sign-in reads the provider's institution, then the institution and its
 * connection side by side, then the domain's guard, and commits the seat, the access record, the marker and both
 * events in one transaction (four GetItems and a TransactWriteItems, four round trips).
 */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { PreTokenGenerationTriggerEvent } from "aws-lambda";
import type { Gateway } from "../infra/local/gateway.js";
import type { LocalStack } from "../infra/local/stack.js";
import { db } from "../shared/clients.js";
import { config } from "../shared/config.js";
import { domainKeys, ssoKeys } from "../shared/tables.js";
import { Api, type Count, createdId, describeRequests, newUser, type RequestMeter } from "./harness.js";
import { type Row, verdict } from "./report.js";
import { CALLS } from "./requests.js";

interface Measured {
  readonly subject: string;
  readonly design: readonly string[];
  readonly rounds: number;
  readonly calls: Count[];
}

export async function measureSso(stack: LocalStack, gateway: Gateway, meter: RequestMeter, log: (s: string) => void): Promise<Measured[]> {
  const api = new Api(gateway.url);
  const run = Date.now().toString(36);
  try {
    const owner = await newUser(stack, `sso-owner-${run}@bench.test`, `acct-sso-${run}`);
    const created = await api.json(
      "POST",
      "/api/v1/institutions",
      { token: owner.token, body: { institution: { name: `Bench SSO ${run}` } } },
      201,
    );
    const institutionId = createdId(created, "institution");
    const domain = `sso-${run}.bench.test`;
    const provider = `bench-sso-${run}`.slice(0, 32);
    const at = new Date().toISOString();
    const T = config.tables.main;
    await db.send(
      new PutCommand({
        TableName: T,
        Item: {
          ...domainKeys.guard(domain),
          domain,
          institution_id: institutionId,
          domain_id: `D${run}`,
          account_id: owner.account,
          verified_at: at,
        },
      }),
    );
    await db.send(
      new PutCommand({ TableName: T, Item: { ...ssoKeys.provider(provider), institution_id: institutionId, provider_name: provider } }),
    );
    await db.send(
      new PutCommand({
        TableName: T,
        Item: {
          ...ssoKeys.connection(institutionId),
          id: `C${run}`,
          institution_id: institutionId,
          account_id: owner.account,
          type: "oidc",
          provider_name: provider,
          status: "active",
          oidc: { client_id: "bench", idp: { issuer: "https://idp.bench.test" } },
          attribute_mapping: { email: "email", name: "name", groups: "groups" },
          role_mappings: [],
          jit: { enabled: true, default_role: "cohort_admin" },
          require_sso: false,
          created_at: at,
          updated_at: at,
          version: 2,
        },
      }),
    );
    const { handler: preTokenGeneration } = await import("../functions/sso/pre-token-generation.js");
    const signIn = (i: number) =>
      preTokenGeneration({
        version: "1",
        region: stack.region,
        userPoolId: stack.userPoolId,
        userName: `${provider}_person-${i}`,
        callerContext: { awsSdkVersion: "bench", clientId: stack.userPoolClientId },
        triggerSource: "TokenGeneration_HostedAuth",
        request: {
          userAttributes: {
            sub: `bench-sso-${run}-${i}`,
            email: `person.${i}@${domain}`,
            identities: JSON.stringify([{ userId: `person-${i}`, providerName: provider, providerType: "OIDC", primary: "true" }]),
            // Given its account at its first sign-in already: no pool call in the count.
            "custom:account_id": owner.account,
          },
          groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [] },
        },
        response: { claimsOverrideDetails: {} },
      } as PreTokenGenerationTriggerEvent);

    const out: Measured[] = [];
    const discover: Count[] = [];
    for (let i = 0; i < CALLS; i++) {
      const { result, count } = await meter.count(() =>
        api.send("POST", "/api/v1/sso/discover", { body: { email: `someone.${i}@${domain}` } }),
      );
      if (result.status !== 200 || !result.text.includes(provider))
        throw new Error(`discover: ${result.status} ${result.text.slice(0, 200)}`);
      discover.push(count);
    }
    out.push({
      subject: "POST /api/v1/sso/discover (a connected domain)",
      design: ["GetItem", "GetItem", "GetItem"],
      rounds: 2,
      calls: discover,
    });
    const jit: Count[] = [];
    for (let i = 0; i < CALLS; i++) jit.push((await meter.count(() => signIn(i))).count);
    out.push({
      subject: "sso/pre-token-generation (a JIT sign-in)",
      design: ["GetItem", "GetItem", "GetItem", "GetItem", "TransactWriteItems"],
      rounds: 4,
      calls: jit,
    });
    for (const m of out)
      log(
        `  ${m.subject.padEnd(48)} ${[...new Set(m.calls.map((c) => `${describeRequests(c.requests)} in ${c.rounds} round trips`))].join(" | ")}`,
      );
    return out;
  } finally {
    api.close();
  }
}

const sorted = (r: readonly string[]) => [...r].sort().join();

export function ssoRows(results: readonly Measured[]): Row[] {
  return results.map((m) => {
    const seen = [...new Set(m.calls.map((c) => `${describeRequests(c.requests)}, ${c.rounds ?? 0} round trips`))];
    return {
      measure: "requests",
      subject: m.subject,
      figure: "requests, round trips",
      value: seen.join(" | "),
      floor: `${describeRequests(m.design)}, ${m.rounds} round trips`,
      budget: "= floor",
      verdict: verdict(m.calls.every((c) => sorted(c.requests) === sorted(m.design) && c.rounds === m.rounds)),
      data: { design: m.design, rounds: m.rounds, calls: m.calls },
    };
  });
}
