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
import { App, type CfnResource, type Stack } from "aws-cdk-lib";
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

export function newApp(): App {
  return new App({ context: { ...cdkJson.context, "aws:cdk:bundling-stacks": [] } });
}

export interface Built {
  readonly app: App;
  readonly stack: InstitutionAdminStack;
  readonly template: Template;
  readonly resources: Record<string, Json>;
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
  const resources: Record<string, Json> = template.toJSON().Resources;
  return {
    app,
    stack,
    template,
    resources,
    logicalId: (c) => stack.getLogicalId(c.node.defaultChild as CfnResource),
    ofType: (type) => Object.entries(resources).filter(([, r]) => r.Type === type),
  };
}

/** Unacknowledged AwsSolutions findings, as `cdk synth` would report them (cdk-nag 3 is a validation plugin). */
export function nagFindings(scope: App | Stack): string[] {
  const report = new AwsSolutionsChecks().validateScope(scope);
  return report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(", ")}`);
}
