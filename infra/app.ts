/**
 * CDK entry point (`cdk.json` runs it with tsx). Settings come from context, so a deployment is configured
 * on the command line: `npx cdk deploy -c senderEmail=... -c appBaseUrl=...`.
 */
import { App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { InstitutionAdminStack } from "./stack.js";

const app = new App();

function context(key: string): string | undefined {
  const value: unknown = app.node.tryGetContext(key);
  return value === undefined || value === null || value === "" ? undefined : String(value);
}

function positiveInt(key: string): number | undefined {
  const raw = context(key);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`Context ${key} must be a positive integer, got "${raw}"`);
  return n;
}

const senderEmail = context("senderEmail");
const appBaseUrl = context("appBaseUrl");
if (!senderEmail || !appBaseUrl) throw new Error("Context senderEmail and appBaseUrl are required (see cdk.json)");

new InstitutionAdminStack(app, context("stackName") ?? "InstitutionAdminApi", {
  description: "Institution Administration API (HTTP API, Lambda, DynamoDB, Cognito, SES)",
  // Account and region of the CLI profile; unset (environment-agnostic) when synthesizing offline.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  senderEmail,
  appBaseUrl: appBaseUrl.replace(/\/+$/, ""),
  importSenderIdentity: context("importSenderIdentity") === "true",
  sandboxRecipients: context("sandboxRecipients")
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean),
  invitationValidityDays: positiveInt("invitationValidityDays"),
  pendingInvitationLimit: positiveInt("pendingInvitationLimit"),
});

// cdk-nag runs as a CDK validation plugin: any unacknowledged finding fails `cdk synth` and `cdk deploy`.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
