/**
 * Room to grow (docs/sso.md): CloudFormation takes at most 500 resources in one stack, and CDK notes a stack
 * from 400 on. The API stack held 475 with every route, integration, Lambda permission and alarm in it; the
 * routes (infra/api.ts) and the alarms and dashboard (infra/monitoring.ts) now live in nested stacks of their
 * own, so each stack stays under 400 and the route table can grow.
 */
import { readFileSync } from "node:fs";
import { type App, NestedStack, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { defineApp } from "../../infra/app.js";
import { paths, type Route, routes } from "../../shared/routes.js";
import { build, consoleBuild, newApp } from "./support.js";

/** What CDK notes (an info annotation) and what CloudFormation refuses, per stack. */
const CDK_NOTES_FROM = 400;

/** Each stack of `app`, nested ones included, with its resource count. */
function counts(app: App): Map<string, number> {
  app.synth();
  const out = new Map<string, number>();
  for (const c of app.node.findAll()) {
    if (!Stack.isStack(c)) continue;
    out.set(c.node.path, Object.keys(Template.fromStack(c).toJSON().Resources ?? {}).length);
  }
  return out;
}

/** CDK's notes on the assembly: a stack nearing 500 resources would be one of them. */
function resourceNotes(app: App): string[] {
  return app
    .synth()
    .stacks.flatMap((s) => s.messages)
    .map((m) => String(m.entry.data))
    .filter((text) => /resources/i.test(text));
}

describe("every stack under 400 resources", () => {
  const apps = {
    "dev (npx cdk synth)": { context: {}, region: undefined },
    "prod (-c env=prod)": { context: { env: "prod" }, region: undefined },
    "prod in another region (its web ACL and log delivery in us-east-1)": { context: { env: "prod" }, region: "eu-west-1" },
  } as const;

  for (const [name, { context, region }] of Object.entries(apps)) {
    it(name, () => {
      const app = newApp(context);
      defineApp(app, { env: { account: region && "123456789012", region }, consoleAssetDir: consoleBuild() });
      const perStack = counts(app);
      // The API stack and its two nested stacks at least.
      expect(perStack.size, name).toBeGreaterThanOrEqual(3);
      for (const [path, n] of perStack) expect(n, `${path}: ${n} resources`).toBeLessThan(CDK_NOTES_FROM);
      expect(resourceNotes(app), name).toEqual([]);
      // The first synthesis bundles every function (58 of them), which takes over a minute on a loaded machine.
    }, 180_000);
  }
});

describe("where the resources that grow live", () => {
  const base = build({}, { id: "RoomStack", validate: false });
  const own = (type: string) =>
    Object.values(base.template.toJSON().Resources as Record<string, { Type: string }>).filter((r) => r.Type === type);

  it("the API stack holds no route, integration or route permission, and no alarm but the dead letters' (made beside its queue)", () => {
    expect(own("AWS::ApiGatewayV2::Route")).toEqual([]);
    expect(own("AWS::ApiGatewayV2::Integration")).toEqual([]);
    expect(own("AWS::CloudWatch::Dashboard")).toEqual([]);
    expect(own("AWS::CloudWatch::Alarm")).toHaveLength(1);
    expect(base.ofType("AWS::ApiGatewayV2::Route")).toHaveLength(routes.length);
    const nested = base.stack.node.findAll().filter((c) => c instanceof NestedStack);
    // And the machines' API (docs/api-keys.md, infra/machine-api.ts), whose routes are its own, and the user pool's
    // own functions (infra/pool-triggers.ts): its triggers, and its activity export.
    expect(nested.map((n) => n.node.id).sort()).toEqual(["ActivityExport", "Machines", "Monitoring", "Routes", "Triggers"]);
  });

  it("has as many resources per stack as docs/operations.md says", () => {
    const doc = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
    const figure = (row: string) => Number(new RegExp(`^\\| ${row} \\|[^\\n]*\\| (\\d+) \\|$`, "m").exec(doc)?.[1]);
    const nested = (id: string) => Object.keys(base.nested.find((n) => n.stack.node.id === id)?.resources ?? {}).length;
    expect(figure("`InstitutionAdminApi`")).toBe(Object.keys(base.template.toJSON().Resources).length);
    expect(figure("its nested `Routes` \\(infra/api.ts\\)")).toBe(nested("Routes"));
    expect(figure("its nested `Monitoring` \\(infra/monitoring.ts\\)")).toBe(nested("Monitoring"));
    expect(figure("its nested `Machines` \\(infra/machine-api.ts\\)")).toBe(nested("Machines"));
    expect(figure("its nested `Triggers` \\(infra/pool-triggers.ts\\)")).toBe(nested("Triggers"));
    expect(figure("its nested `ActivityExport` \\(infra/pool-triggers.ts\\)")).toBe(nested("ActivityExport"));
  });

  it("more routes grow the routes' stack alone: 60 more leave the API and monitoring stacks as they were, all under 400", () => {
    // Sixty routes on existing handlers: each is a route, its integration and its Lambda permission.
    const more: Route[] = Array.from({ length: 60 }, (_, i) => ({
      method: "GET",
      path: `${paths.api}/room/r${i}`,
      handler: "institutions/list",
      rule: { kind: "any" },
      who: "test",
      access: { main: ["Query"] },
    }));
    const grown = build({ routes: [...routes, ...more] }, { id: "RoomStack", validate: false });
    const sizes = (b: typeof base) =>
      Object.fromEntries([
        ["api", Object.keys(b.template.toJSON().Resources).length],
        ...b.nested.map((n) => [n.stack.node.id, Object.keys(n.resources).length]),
      ]);
    const before = sizes(base);
    const after = sizes(grown);
    expect(after.api).toBe(before.api);
    expect(after.Monitoring).toBe(before.Monitoring);
    expect(after.Routes).toBe(before.Routes + 3 * more.length);
    for (const [part, n] of Object.entries(after)) expect(n, part).toBeLessThan(CDK_NOTES_FROM);
  });
});
