/**
 * Builds the stack as `cdk synth` does, for assertions: cdk.json's context, bundling skipped (the
 * `aws:cdk:bundling-stacks` context, so the real NodejsFunction constructs synthesize in seconds), and a stand-in
 * console build (a temporary directory with an index.html) in place of web/dist.
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

export function build(props: Partial<InstitutionAdminStackProps> = {}, id = "TestStack", app = newApp()): Built {
  const stack = new InstitutionAdminStack(app, id, { senderEmail: "sender@example.com", consoleAssetDir: consoleBuild(), ...props });
  return describe(app, stack);
}

export function describe(app: App, stack: InstitutionAdminStack): Built {
  const template = Template.fromStack(stack);
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
