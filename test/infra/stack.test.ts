/**
 * Assertions on the synthesized CloudFormation template: the stack must carry the route table, the access
 * rules and the table definitions of `shared/` exactly, and pass cdk-nag. Bundling is skipped (the
 * `aws:cdk:bundling-stacks` context, see support.ts), so the real NodejsFunction constructs are synthesized in
 * seconds; CDK's own CloudFormation validation runs on this template, as it does in `cdk synth`.
 */
import { readFileSync } from "node:fs";
import type { CfnResource } from "aws-cdk-lib";
import { Match } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { handlers, paths, type Route, routes, takesIdempotencyKey } from "../../shared/routes.js";
import { eventsTable, idempotencyTable, mainTable, type TableDef } from "../../shared/tables.js";
import { appClientSettings, build, type Json, nagFindings } from "./support.js";

const built = build({ appBaseUrl: "https://app.example.com" });
const { app, stack, template, resources, logicalId, ofType } = built;

function fnOf(handler: string) {
  const fn = stack.functions.get(handler);
  if (!fn) throw new Error(`no function for ${handler}`);
  return fn;
}
const mainId = logicalId(stack.mainTable);
const eventsId = logicalId(stack.eventsTable);
const idempotencyId = logicalId(stack.idempotencyTable);
/**
 * What Powertools' DynamoDB persistence layer sends, and nothing else (no Query, no Scan, no batch; no GetItem: a
 * failed save brings the record back, infra/tables.ts).
 */
const IDEMPOTENCY = ["dynamodb:DeleteItem", "dynamodb:PutItem", "dynamodb:UpdateItem"];
// A SCIM client knows no Idempotency-Key (docs/scim.md): the SCIM service's POSTs take none.
const hasPost = (handler: string) => routes.some((r) => r.handler === handler && takesIdempotencyKey(r));

/**
 * The grant each declared call needs, stated here independently of the stack's own mapping: on the table
 * (`<table id>`) or on one index (`<table id>/index/<name>`). Writing to the trail is appending (docs/security.md):
 * `append` is a PutItem of event keys, `count` an UpdateItem of counter keys (bounds.test.ts checks the keys).
 */
function expectedGrants(tableId: string, calls: readonly string[] | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const call of calls ?? []) {
    const index = /^Query (.+)$/.exec(call)?.[1];
    const [resource, action] = index
      ? [`${tableId}/index/${index}`, "dynamodb:Query"]
      : [tableId, `dynamodb:${{ append: "PutItem", count: "UpdateItem" }[call] ?? call}`];
    out[resource] = [...new Set([...(out[resource] ?? []), action])].sort();
  }
  return out;
}
/** All statements of the policies attached to the function's role. */
function statementsOf(handler: string): Json[] {
  const roleId = stack.getLogicalId(fnOf(handler).role?.node.defaultChild as CfnResource);
  return ofType("AWS::IAM::Policy")
    .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}

const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);
const XRAY_ACTIONS = ["xray:PutTelemetryRecords", "xray:PutTraceSegments"];

/**
 * DynamoDB actions granted per resource: `<table logical id>` (a resource names its table through GetAtt), or
 * `<table logical id>/index/<name>` for an index.
 */
function tableActions(handler: string): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  for (const s of statementsOf(handler)) {
    const actions = asList<string>(s.Action).filter((a) => a.startsWith("dynamodb:"));
    if (actions.length === 0) continue;
    for (const res of asList<Json>(s.Resource)) {
      const text = JSON.stringify(res);
      const table = [mainId, eventsId, idempotencyId].find((id) => text.includes(`"${id}"`));
      if (!table) throw new Error(`${handler}: DynamoDB grant on an unexpected resource ${text}`);
      const index = /\/index\/([^"/*]+)"/.exec(text)?.[1];
      if (text.includes("/index/") && !index) throw new Error(`${handler}: an index grant that names no index: ${text}`);
      const key = index ? `${table}/index/${index}` : table;
      out[key] ??= new Set();
      for (const a of actions) out[key].add(a);
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v].sort()]));
}

describe("HTTP API", () => {
  const routeResources = ofType("AWS::ApiGatewayV2::Route").map(([, r]) => r.Properties);
  const authorizerEntry = ofType("AWS::ApiGatewayV2::Authorizer").find(([, r]) => r.Properties.AuthorizerType === "JWT");
  const scimAuthorizerEntry = ofType("AWS::ApiGatewayV2::Authorizer").find(([, r]) => r.Properties.AuthorizerType === "REQUEST");

  it("has exactly one route per route-table entry", () => {
    const keys = routeResources.map((r) => r.RouteKey).sort();
    expect(keys).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it("protects every route but the public ones with the JWT authorizer", () => {
    expect(authorizerEntry).toBeDefined();
    const [authorizerId] = authorizerEntry ?? [];
    const publicKeys = new Set(routes.filter((r) => r.public).map((r) => `${r.method} ${r.path}`));
    const scimKeys = new Set(routes.filter((r) => r.auth === "scim").map((r) => `${r.method} ${r.path}`));
    for (const r of routeResources) {
      if (publicKeys.has(r.RouteKey)) {
        expect(r.AuthorizationType, r.RouteKey).toBe("NONE");
        expect(r.AuthorizerId, r.RouteKey).toBeUndefined();
        continue;
      }
      if (scimKeys.has(r.RouteKey)) {
        // The SCIM routes (docs/scim.md): the connection's token, checked by the Lambda authorizer.
        expect(r.AuthorizationType, r.RouteKey).toBe("CUSTOM");
        expect(r.AuthorizerId, r.RouteKey).toEqual({ Ref: scimAuthorizerEntry?.[0] });
        continue;
      }
      expect(r.AuthorizationType, r.RouteKey).toBe("JWT");
      expect(r.AuthorizerId, r.RouteKey).toEqual({ Ref: authorizerId });
    }
  });

  it("checks the SCIM token with a Lambda REQUEST authorizer: simple responses, the Authorization header, no cache", () => {
    const props = scimAuthorizerEntry?.[1].Properties;
    expect(props).toMatchObject({
      AuthorizerType: "REQUEST",
      AuthorizerPayloadFormatVersion: "2.0",
      EnableSimpleResponses: true,
      IdentitySource: ["$request.header.Authorization"],
      AuthorizerResultTtlInSeconds: 0,
    });
    expect(routes.filter((r) => r.auth === "scim").length).toBeGreaterThanOrEqual(17);
  });

  it("verifies Cognito ID tokens: user-pool issuer, app-client audience, Authorization header", () => {
    const props = authorizerEntry?.[1].Properties;
    expect(props.AuthorizerType).toBe("JWT");
    expect(props.IdentitySource).toEqual(["$request.header.Authorization"]);
    expect(props.JwtConfiguration.Audience).toEqual([{ Ref: logicalId(stack.consoleClient.resource) }]);
    const issuer = JSON.stringify(props.JwtConfiguration.Issuer);
    expect(issuer).toContain("https://cognito-idp.");
    expect(issuer).toContain(JSON.stringify({ Ref: logicalId(stack.userPool) }));
  });

  it("has an auto-deployed $default stage with access logging and throttling", () => {
    template.hasResourceProperties("AWS::ApiGatewayV2::Stage", {
      StageName: "$default",
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: { "Fn::GetAtt": [Match.anyValue(), "Arn"] }, Format: Match.anyValue() },
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
  });

  it("exports the API URL, user pool, client and table names", () => {
    const outputs = Object.keys(template.toJSON().Outputs);
    expect(outputs).toEqual(expect.arrayContaining(["ApiUrl", "UserPoolId", "UserPoolClientId", "MainTableName", "EventsTableName"]));
  });
});

describe("functions", () => {
  const fns = ofType("AWS::Lambda::Function");

  it("has one function per distinct handler, arm64 on the newest Node.js runtime", () => {
    // The other functions are CDK's own (the console deployment's, in Python), the trail's three (trail.ts: the
    // digest function, the public-key reader and CDK's custom-resource framework function), and the three
    // without a route (infra/streaming.ts: export worker, stream consumer, webhook retrier), and the console app
    // client's two (infra/app-client.ts: its custom resource's function and CDK's framework function), and the upgrade's
    // backfill's two (infra/backfill.ts, the same).
    const { exportWorker, consumer, retrier } = stack.streaming;
    expect(fns.filter(([, f]) => String(f.Properties.Runtime).startsWith("nodejs"))).toHaveLength(
      // + the SCIM routes' Lambda authorizer (docs/scim.md) + the user pool's SSO triggers (docs/sso.md, infra/sso-triggers.ts)
      // + the pool's own functions (its other triggers and the activity export's subscriber, infra/pool-triggers.ts)
      // + the console app client's two + the backfill's two.
      handlers().size +
        3 +
        [exportWorker, consumer, retrier].length +
        1 +
        stack.ssoTriggers.functions.size +
        stack.poolTriggers.functionsByHandler.size +
        2 +
        2,
    );
    expect(stack.functions.size).toBe(handlers().size);
    for (const [handler, fn] of stack.functions) {
      const props = resources[logicalId(fn)].Properties;
      expect(props.Architectures, handler).toEqual(["arm64"]);
      expect(props.Runtime, handler).toBe("nodejs24.x");
      expect(props.Handler, handler).toBe("index.handler");
    }
  });

  it("routes that share a handler share its function (PATCH and PUT of an institution)", () => {
    const integrations = ofType("AWS::ApiGatewayV2::Integration").map(([, i]) => JSON.stringify(i.Properties.IntegrationUri));
    const update = logicalId(fnOf("institutions/update"));
    expect(integrations.filter((uri) => uri.includes(`"${update}"`))).toHaveLength(2);
  });

  it("passes the table names everywhere and the mail settings only to mail functions", () => {
    for (const [handler, access] of handlers()) {
      const env = resources[logicalId(fnOf(handler))].Properties.Environment.Variables;
      expect(env.MAIN_TABLE, handler).toEqual({ Ref: mainId });
      expect(env.EVENTS_TABLE, handler).toEqual({ Ref: eventsId });
      expect(env.NODE_OPTIONS, handler).toBe("--enable-source-maps");
      if (access.mail) {
        expect(env.MAIL_FROM, handler).toBe("sender@example.com");
        expect(env.APP_BASE_URL, handler).toBe("https://app.example.com");
      } else {
        expect(env.MAIL_FROM, handler).toBeUndefined();
      }
    }
  });

  it("logs each function to its own log group with a retention", () => {
    for (const [handler, fn] of stack.functions) {
      const logGroupRef = resources[logicalId(fn)].Properties.LoggingConfig.LogGroup.Ref;
      expect(resources[logGroupRef].Properties.RetentionInDays, handler).toBe(30);
    }
  });
});

describe("least privilege", () => {
  it("grants each function exactly the DynamoDB calls its routes declare, on exactly the tables and indexes they name", () => {
    for (const [handler, access] of handlers()) {
      const expected: Record<string, string[]> = { ...expectedGrants(mainId, access.main), ...expectedGrants(eventsId, access.events) };
      // Idempotency-Key records: only the functions with a POST route, which alone get the table's name.
      if (hasPost(handler)) expected[idempotencyId] = IDEMPOTENCY;
      expect(tableActions(handler), handler).toEqual(expected);
      const env = resources[stack.getLogicalId(fnOf(handler).node.defaultChild as CfnResource)].Properties.Environment.Variables;
      expect(env.IDEMPOTENCY_TABLE === undefined, handler).toBe(!hasPost(handler));
    }
    expect([...handlers().keys()].filter(hasPost).length).toBeGreaterThanOrEqual(5);
  });

  it("grants a handler the union of its routes' calls: a read route and a write route on one table give both", () => {
    const readRoute: Route = {
      method: "GET",
      path: `${paths.api}/things`,
      handler: "institutions/list",
      rule: { kind: "any" },
      who: "test",
      access: { main: ["Query", "Query by_institution_member"] },
    };
    const writeRoute: Route = { ...readRoute, method: "POST", access: { main: ["GetItem", "UpdateItem"] } };
    const table = [...routes.filter((r) => r.handler !== "institutions/list"), readRoute, writeRoute];
    const union = build({ routes: table }, { id: "UnionStack", validate: false });
    const fnId = union.logicalId(union.stack.functions.get("institutions/list") as never);
    const roleId = union.resources[fnId].Properties.Role["Fn::GetAtt"][0];
    const main = union.logicalId(union.stack.mainTable as never);
    const statements = union
      .ofType("AWS::IAM::Policy")
      .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[])
      .filter((s) => JSON.stringify(s.Resource).includes(`"${main}"`));
    const onTable = statements.filter((s) => !JSON.stringify(s.Resource).includes("/index/"));
    const onIndexes = statements.filter((s) => JSON.stringify(s.Resource).includes("/index/"));
    expect(onTable.flatMap((s) => asList<string>(s.Action)).sort()).toEqual(["dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem"]);
    expect(onIndexes.map((s) => [asList<string>(s.Action), JSON.stringify(s.Resource)])).toEqual([
      [["dynamodb:Query"], expect.stringContaining("/index/by_institution_member")],
    ]);
  });

  it("refuses at synth an index the table does not have", () => {
    const route: Route = {
      method: "GET",
      path: `${paths.api}/things`,
      handler: "institutions/list",
      rule: { kind: "any" },
      who: "test",
      access: { main: ["Query by_nothing" as never] },
    };
    expect(() => build({ routes: [...routes.filter((r) => r.handler !== "institutions/list"), route] }, { validate: false })).toThrow(
      /Main table has no index by_nothing/,
    );
  });

  it("spot checks: the trail's readers only read and count their refusals, institution listing never touches events", () => {
    expect(tableActions("security-events/list")).toEqual({
      [eventsId]: ["dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"],
      [`${eventsId}/index/by_type`]: ["dynamodb:Query"],
      [`${eventsId}/index/by_user`]: ["dynamodb:Query"],
    });
    expect(tableActions("security-events/show")).toEqual({ [eventsId]: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"] });
    // Its access records (Query), or an API key's one institution (GetItem, docs/api-keys.md).
    expect(tableActions("institutions/list")).toEqual({ [mainId]: ["dynamodb:GetItem", "dynamodb:Query"] });
    // A removal reads the person's records of the invitations they sent (Query), then those invitations (BatchGetItem);
    // no index: `by_invitation_sender` may lag (docs/security.md, "Offboarding is complete").
    expect(tableActions("administrators/remove")).toEqual({
      [mainId]: ["dynamodb:BatchGetItem", "dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem"],
      [eventsId]: expect.any(Array),
    });
  });

  it("lets only the functions that query an index query it, by name, and never grants wildcards or Scan", () => {
    // Spelled out here, not read from the route table: who queries which index (the repositories' Query calls).
    const queries: Record<string, string[]> = {
      "administrators/list": [`${mainId}/index/by_institution_member`],
      "invitations/list": [`${mainId}/index/by_invitation_state`],
      "security-events/list": [`${eventsId}/index/by_type`, `${eventsId}/index/by_user`],
      "security-events/export": [`${eventsId}/index/by_type`],
      "security-events/alerts": [`${eventsId}/index/by_type`],
    };
    for (const handler of handlers().keys()) {
      const indexes = Object.keys(tableActions(handler)).filter((k) => k.includes("/index/"));
      expect(indexes.sort(), handler).toEqual(queries[handler] ?? []);
    }
    for (const handler of handlers().keys()) {
      for (const s of statementsOf(handler)) {
        const actions = asList<string>(s.Action);
        // Active tracing's two X-Ray actions have no resource-level permissions: `*` is their only resource.
        if (actions.every((a) => XRAY_ACTIONS.includes(a))) {
          expect(s.Resource, handler).toBe("*");
          continue;
        }
        expect(
          actions.some((a) => a.includes("*") || a === "dynamodb:Scan"),
          handler,
        ).toBe(false);
        expect(asList<Json>(s.Resource), handler).not.toContain("*");
        expect(JSON.stringify(s.Resource), handler).not.toContain("/index/*");
      }
    }
  });

  it("gives the user-pool calls only to the functions that use the pool, exactly their calls, on the one pool", () => {
    const pool = logicalId(stack.userPool);
    // Spelled out here, not read from USER_ACTIONS: what each use case calls (shared/users.ts).
    const calls: Record<string, string[]> = {
      "administrators/transfer": ["cognito-idp:AdminGetUser"],
      "invitations/open": ["cognito-idp:AdminGetUser"],
      "invitations/register": ["cognito-idp:AdminCreateUser", "cognito-idp:AdminSetUserPassword", "cognito-idp:AdminDeleteUser"],
      "scim/service": ["cognito-idp:ListUsers", "cognito-idp:AdminCreateUser"],
      // The caller's own account (docs/contract/people.md): their second step, their sessions.
      "me/mfa": ["cognito-idp:AdminSetUserMFAPreference"],
      "me/sign-out-everywhere": ["cognito-idp:AdminUserGlobalSignOut"],
      // Deleting an institution with an SSO connection (shared/sso/release.ts): its provider unlisted, then deleted.
      "institutions/delete": [
        "cognito-idp:DescribeUserPoolClient",
        "cognito-idp:UpdateUserPoolClient",
        "cognito-idp:DeleteIdentityProvider",
      ],
      // The SSO connection (shared/sso/pool.ts): the institution's identity provider, and the app client's list.
      "sso/connection": [
        "cognito-idp:CreateIdentityProvider",
        "cognito-idp:UpdateIdentityProvider",
        "cognito-idp:DeleteIdentityProvider",
        "cognito-idp:DescribeUserPoolClient",
        "cognito-idp:UpdateUserPoolClient",
      ],
    };
    for (const [handler, access] of handlers()) {
      const statements = statementsOf(handler).filter((st) => asList(st.Action).some((a) => String(a).startsWith("cognito-idp:")));
      const env = resources[logicalId(fnOf(handler))].Properties.Environment.Variables;
      if (!access.users) {
        expect(statements, handler).toEqual([]);
        expect(env.USER_POOL_ID, handler).toBeUndefined();
        continue;
      }
      expect(statements, handler).toHaveLength(1);
      expect(asList(statements[0]?.Action), handler).toEqual(calls[handler]);
      expect(statements[0], handler).toMatchObject({ Effect: "Allow", Resource: { "Fn::GetAtt": [pool, "Arn"] } });
      expect(env.USER_POOL_ID, handler).toEqual({ Ref: pool });
    }
    expect(
      [...handlers()]
        .filter(([, a]) => a.users)
        .map(([h]) => h)
        .sort(),
    ).toEqual(Object.keys(calls).sort());
  });

  it("gives ses:SendEmail only to mail routes, on the sender identity and the configuration set only", () => {
    const senderId = ofType("AWS::SES::EmailIdentity").find(([, r]) => r.Properties.EmailIdentity === "sender@example.com")?.[0];
    expect(senderId).toBeDefined();
    const configurationSetId = logicalId(stack.mailConfigurationSet);
    for (const [handler, access] of handlers()) {
      const ses = statementsOf(handler).filter((s) => asList<string>(s.Action).some((a) => a.startsWith("ses:")));
      if (!access.mail) {
        expect(ses, handler).toEqual([]);
        continue;
      }
      expect(ses, handler).toHaveLength(1);
      expect(ses[0].Action, handler).toBe("ses:SendEmail");
      const resourcesText = asList<Json>(ses[0].Resource).map((r) => JSON.stringify(r));
      expect(resourcesText, handler).toHaveLength(2);
      expect(resourcesText[0], handler).toContain(`:identity/`);
      expect(resourcesText[0], handler).toContain(`"${senderId}"`);
      expect(resourcesText[1], handler).toContain(`:configuration-set/`);
      expect(resourcesText[1], handler).toContain(`"${configurationSetId}"`);
    }
    expect([...handlers()].filter(([, a]) => a.mail).length).toBeGreaterThan(0);
  });
});

describe("tables", () => {
  const expectTable = (id: string, def: TableDef) => {
    const table = resources[id];
    const props = table.Properties;
    expect(props.KeySchema).toEqual([
      { AttributeName: def.partitionKey, KeyType: "HASH" },
      ...(def.sortKey ? [{ AttributeName: def.sortKey, KeyType: "RANGE" }] : []),
    ]);
    expect(props.GlobalSecondaryIndexes ?? []).toEqual(
      def.indexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: "HASH" },
          { AttributeName: i.sortKey, KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "ALL" },
      })),
    );
    for (const a of props.AttributeDefinitions) expect(a.AttributeType).toBe("S");
    expect(props.BillingMode).toBe("PAY_PER_REQUEST");
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(props.DeletionProtectionEnabled).toBe(true);
    expect(props.SSESpecification).toEqual({ SSEEnabled: true });
    expect(table.DeletionPolicy).toBe("Retain");
    expect(props.TimeToLiveSpecification).toEqual(def.ttlAttribute ? { AttributeName: def.ttlAttribute, Enabled: true } : undefined);
  };

  it("builds the main table from shared/tables.ts", () => expectTable(mainId, mainTable));
  it("builds the events table, its GSIs and TTL from shared/tables.ts", () => expectTable(eventsId, eventsTable));
  it("builds the idempotency table, keyed by id alone, with its TTL, from shared/tables.ts", () => {
    expectTable(idempotencyId, idempotencyTable);
    expect(resources[idempotencyId].Properties.KeySchema).toEqual([{ AttributeName: "id", KeyType: "HASH" }]);
    expect(resources[idempotencyId].Properties.TimeToLiveSpecification).toEqual({ AttributeName: "expiration", Enabled: true });
  });
  it("has no other tables", () => expect(ofType("AWS::DynamoDB::Table")).toHaveLength(3));
});

describe("Cognito", () => {
  const pool = resources[logicalId(stack.userPool)].Properties;
  const client = appClientSettings(built);

  it("has no self sign-up and signs in with e-mail", () => {
    expect(pool.AdminCreateUserConfig.AllowAdminCreateUserOnly).toBe(true);
    expect(pool.UsernameAttributes).toEqual(["email"]);
  });

  it("has the custom account_id attribute, readable but not writable by the app client", () => {
    expect(pool.Schema).toContainEqual(expect.objectContaining({ Name: "account_id", AttributeDataType: "String" }));
    expect(client.ReadAttributes).toContain("custom:account_id");
    expect(client.WriteAttributes).toBeDefined();
    expect(client.WriteAttributes).not.toContain("custom:account_id");
    expect(client.WriteAttributes).not.toContain("email");
    // The console's sign-in.
    expect(client.ExplicitAuthFlows).toContain("ALLOW_USER_PASSWORD_AUTH");
  });

  it("has the cohort_super_admin group", () => {
    template.hasResourceProperties("AWS::Cognito::UserPoolGroup", { GroupName: "cohort_super_admin" });
  });
});

describe("sample events for sam local invoke", () => {
  it("has one payload-2.0 event per handler, on one of its routes, with the claims the authorizer passes", () => {
    for (const handler of handlers().keys()) {
      const file = new URL(`../../infra/events/${handler.replace("/", "-")}.json`, import.meta.url);
      const event = JSON.parse(readFileSync(file, "utf8"));
      expect(event.version, handler).toBe("2.0");
      const routeKeys = routes.filter((r) => r.handler === handler).map((r) => `${r.method} ${r.path}`);
      expect(routeKeys, handler).toContain(event.routeKey);
      expect(event.requestContext.routeKey, handler).toBe(event.routeKey);
      // A route without an authorizer (the API document's) gets no authorizer context.
      if (routes.some((r) => r.handler === handler && r.public)) {
        expect(event.requestContext.authorizer, handler).toBeUndefined();
        continue;
      }
      // The SCIM routes get the Lambda authorizer's context: the connection the token names.
      if (routes.some((r) => r.handler === handler && r.auth === "scim")) {
        expect(Object.keys(event.requestContext.authorizer.lambda).sort(), handler).toEqual([
          "account_id",
          "connection_id",
          "institution_id",
        ]);
        continue;
      }
      expect(Object.keys(event.requestContext.authorizer.jwt.claims), handler).toEqual(
        expect.arrayContaining(["sub", "email", "name", "cognito:groups", "custom:account_id"]),
      );
    }
  });
});

describe("cdk-nag", () => {
  it("reports no unacknowledged AwsSolutions findings", () => {
    expect(nagFindings(app)).toEqual([]);
  });
});
