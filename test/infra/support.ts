/**
 * Builds the stack as `cdk synth` does, for assertions: cdk.json's context, bundling skipped (the
 * `aws:cdk:bundling-stacks` context, so the real NodejsFunction constructs synthesize in seconds), and a stand-in
 * console build (a temporary directory with an index.html) in place of web/dist.
 *
 * CDK's built-in CloudFormation validation (a WebAssembly linter, tens of seconds on a busy machine) runs on the
 * templates stack.test.ts and environments.test.ts build (dev and prod); variants of those skip it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, type CfnResource, NestedStack, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { InstitutionAdminStack, type InstitutionAdminStackProps } from "../../infra/stack.js";

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
export type Json = any;

const cdkJson = JSON.parse(readFileSync(new URL("../../cdk.json", import.meta.url), "utf8")) as { context: Record<string, unknown> };

/** A directory standing in for web/dist. */
export function consoleBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), "console-dist-"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>console</title>");
  return dir;
}

/** An app as `cdk synth` makes it: cdk.json's context, and `context` as `-c key=value` would add it. */
export function newApp(context: Record<string, string> = {}): App {
  return new App({ context: { ...cdkJson.context, "aws:cdk:bundling-stacks": [], ...context } });
}

/** A nested stack of the API stack (the routes, the monitoring), as its parent deploys it. */
export interface Nested {
  readonly stack: NestedStack;
  /** The logical id of its `AWS::CloudFormation::Stack` resource in the parent. */
  readonly id: string;
  readonly template: Template;
  /** Its resources, each parameter replaced by what the parent passes it (see `resources` of `Built`). */
  readonly resources: Record<string, Json>;
}

export interface Built {
  readonly app: App;
  readonly stack: InstitutionAdminStack;
  /** The API stack's own template (its outputs, and every resource but its nested stacks'). */
  readonly template: Template;
  /**
   * Every resource the stack deploys: its own and its nested stacks' (infra/api.ts, infra/monitoring.ts). A nested
   * stack's references to the parent's resources arrive as parameters; here each is replaced by the value the
   * parent passes (`{Ref: <function>}`, `{"Fn::GetAtt": [<function>, "Arn"]}`), as CloudFormation resolves them,
   * so an assertion reads a route's function or an alarm's table by the parent's logical ids wherever it lives.
   */
  readonly resources: Record<string, Json>;
  readonly nested: readonly Nested[];
  /** A construct's logical id in its own stack (the API stack's, or the nested stack's that holds it). */
  readonly logicalId: (c: { node: { defaultChild?: unknown } }) => string;
  readonly ofType: (type: string) => [string, Json][];
}

export interface BuildOptions {
  readonly id?: string;
  readonly app?: App;
  /** Run CDK's CloudFormation validation at synthesis (default true). */
  readonly validate?: boolean;
}

export function build(props: Partial<InstitutionAdminStackProps> = {}, opts: BuildOptions = {}): Built {
  const app = opts.app ?? newApp();
  const stack = new InstitutionAdminStack(app, opts.id ?? "TestStack", {
    senderEmail: "sender@example.com",
    consoleAssetDir: consoleBuild(),
    ...props,
  });
  return synthesized(app, stack, opts.validate ?? true);
}

/** Synthesizes `stack` (with or without CDK's CloudFormation validation) and wraps its template. */
export function synthesized(app: App, stack: InstitutionAdminStack, validate = true): Built {
  const previous = process.env.CDK_VALIDATION;
  if (!validate) process.env.CDK_VALIDATION = "false";
  let template: Template;
  try {
    template = Template.fromStack(stack);
  } finally {
    if (previous === undefined) delete process.env.CDK_VALIDATION;
    else process.env.CDK_VALIDATION = previous;
  }
  const own: Record<string, Json> = template.toJSON().Resources;
  const nested = nestedOf(stack, own);
  const resources: Record<string, Json> = { ...own };
  // The machines' API (docs/api-keys.md, infra/machine-api.ts) is a second HTTP API with routes, an authorizer and
  // functions of its own: its nested stack is held by test/infra/machine-api.test.ts, not by the people's API's.
  for (const n of nested.filter((x) => x.stack !== stack.machineApi.nested)) {
    for (const [id, r] of Object.entries(n.resources)) {
      if (id in resources) throw new Error(`Logical id ${id} is in two templates: the assertions could not tell them apart`);
      resources[id] = r;
    }
  }
  return {
    app,
    stack,
    template,
    resources,
    nested,
    logicalId: (c) => {
      const resource = c.node.defaultChild as CfnResource;
      return Stack.of(resource).getLogicalId(resource);
    },
    ofType: (type) => Object.entries(resources).filter(([, r]) => r.Type === type),
  };
}

/** The nested stacks of `stack`, their parameters resolved to what `parent` (its resources) passes them. */
function nestedOf(stack: Stack, parent: Record<string, Json>): Nested[] {
  const out: Nested[] = [];
  for (const child of stack.node.findAll()) {
    if (!(child instanceof NestedStack) || child.nestedStackParent !== stack) continue;
    const resource = child.nestedStackResource;
    if (!resource) throw new Error(`${child.node.path} has no stack resource`);
    const id = stack.getLogicalId(resource);
    const passed: Record<string, Json> = parent[id]?.Properties?.Parameters ?? {};
    const template = Template.fromStack(child);
    const resolve = (v: Json): Json => {
      if (Array.isArray(v)) return v.map(resolve);
      if (v === null || typeof v !== "object") return v;
      if (Object.keys(v).length === 1 && typeof v.Ref === "string" && v.Ref in passed) return passed[v.Ref];
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    };
    out.push({ stack: child, id, template, resources: resolve(template.toJSON().Resources) });
  }
  return out;
}

/** Unacknowledged AwsSolutions findings, as `cdk synth` would report them (cdk-nag 3 is a validation plugin). */
export function nagFindings(scope: App | Stack): string[] {
  const report = new AwsSolutionsChecks().validateScope(scope);
  return report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(", ")}`);
}

/**
 * The console app client's settings as the custom resource (infra/app-client.ts) receives them: its `Client` JSON,
 * each deploy-time value written `{{<the intrinsic as JSON>}}`, as CloudFormation would join them.
 */
export function appClientSettings(built: Pick<Built, "stack" | "resources" | "logicalId">): Json {
  const resource = built.resources[built.logicalId(built.stack.consoleClient.resource)];
  const client: Json = resource.Properties.Client;
  const text =
    typeof client === "string"
      ? client
      : (client["Fn::Join"][1] as Json[])
          .map((part) => (typeof part === "string" ? part : `{{${JSON.stringify(part).replace(/"/g, "'")}}}`))
          .join("");
  return JSON.parse(text);
}
