/**
 * CDK entry point (`cdk.json` runs it with tsx). Settings come from context, so a deployment is configured
 * on the command line: `npx cdk deploy -c env=prod -c senderEmail=... -c alarmEmail=...` (see settings.ts).
 */
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { App, type Environment, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { CLOUDFRONT_LOGS_REGION, ConsoleAccessLogsStack, consoleLogsName } from "./console-logs.js";
import type { PoolMail } from "./pool-triggers.js";
import { resolveSettings } from "./settings.js";
import { InstitutionAdminStack, type InstitutionAdminStackProps } from "./stack.js";
import { ConsoleWebAclStack } from "./waf.js";

export interface DefinedApp {
  readonly stack: InstitutionAdminStack;
  /** The web ACL's own stack in us-east-1, when WAF is on and the API is in another region. */
  readonly wafStack?: ConsoleWebAclStack;
  /** The console's access-log delivery in us-east-1, when the API is in another region. */
  readonly logsStack?: ConsoleAccessLogsStack;
}

/**
 * The stacks of `app` from its context: the API stack, and for an API outside us-east-1 the stacks of what
 * CloudFront needs there: the web ACL (before the API stack) and the access-log delivery (after it).
 */
export function defineApp(app: App, opts: { readonly env: Environment; readonly consoleAssetDir: string }): DefinedApp {
  const context = (key: string): string | undefined => {
    const value: unknown = app.node.tryGetContext(key);
    return value === undefined || value === null || value === "" ? undefined : String(value);
  };

  const settings = resolveSettings(context);
  const senderEmail = context("senderEmail");
  if (!senderEmail) throw new Error("Context senderEmail is required (see cdk.json)");

  // One stack per environment in an account: dev keeps the plain name (the bench reads cdk.out by it).
  const stackName = context("stackName") ?? (settings.env === "dev" ? "InstitutionAdminApi" : `InstitutionAdminApi-${settings.env}`);

  // A CloudFront web ACL must be created in us-east-1: for an API elsewhere, a stack of its own there.
  const elsewhere = opts.env.region !== undefined && opts.env.region !== CLOUDFRONT_LOGS_REGION;
  const crossRegionWaf = settings.waf && elsewhere;
  const wafStack = crossRegionWaf
    ? new ConsoleWebAclStack(app, `${stackName}-Waf`, {
        description: "Institution Administration API: the CloudFront web ACL (us-east-1)",
        env: { account: opts.env.account, region: "us-east-1" },
        rateLimit: settings.wafRateLimit,
      })
    : undefined;

  const stack = new InstitutionAdminStack(app, stackName, {
    description: "Institution Administration API (HTTP API, Lambda, DynamoDB, Cognito, SES, CloudFront console)",
    env: opts.env,
    crossRegionReferences: elsewhere,
    settings,
    senderEmail,
    senderDomain: context("senderDomain"),
    // Default: the console's CloudFront URL.
    appBaseUrl: context("appBaseUrl")?.replace(/\/+$/, ""),
    importSenderIdentity: context("importSenderIdentity") === "true",
    sandboxRecipients: context("sandboxRecipients")
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    consoleAssetDir: opts.consoleAssetDir,
    webAclArn: wafStack?.webAcl.arn,
    consoleLogsElsewhere: elsewhere,
    apiOrigin: apiOriginFrom(context),
    poolMail: poolMailFrom(context),
  });

  // CloudFront's log delivery source must be created in us-east-1 too; the logs still go to the access-log bucket
  // in the API's region.
  const logsStack = elsewhere
    ? new ConsoleAccessLogsStack(app, `${stackName}-Logs`, {
        description: "Institution Administration API: the console distribution's access-log delivery (us-east-1)",
        env: { account: opts.env.account, region: CLOUDFRONT_LOGS_REGION },
        distributionArn: stack.console.distribution.distributionArn,
        bucketArn: stack.accessLogsBucket.bucketArn,
        sourceName: consoleLogsName(stack.stackName, "source"),
        destinationName: consoleLogsName(stack.stackName, "destination"),
      })
    : undefined;
  return { stack, ...(wafStack && { wafStack }), ...(logsStack && { logsStack }) };
}

/** Who sends the user pool's mail (`-c poolMail=cognito|ses`, default cognito: docs/deploy.md, checklist step 3). */
export function poolMailFrom(context: (key: string) => string | undefined): PoolMail {
  const value = context("poolMail") ?? "cognito";
  if (value !== "cognito" && value !== "ses") throw new Error(`Context poolMail must be cognito or ses, got "${value}"`);
  return value;
}

/** The API's CloudFront-only custom domain from context (`apiOriginDomain` with `apiOriginCertificateArn`), if set. */
export function apiOriginFrom(context: (key: string) => string | undefined): InstitutionAdminStackProps["apiOrigin"] {
  const domainName = context("apiOriginDomain");
  const certificateArn = context("apiOriginCertificateArn");
  if (domainName === undefined && certificateArn === undefined) return undefined;
  if (domainName === undefined || certificateArn === undefined) {
    throw new Error("Context apiOriginDomain and apiOriginCertificateArn go together: the API's domain for CloudFront and its certificate");
  }
  const hostedZoneId = context("apiOriginHostedZoneId");
  const hostedZoneName = context("apiOriginHostedZoneName");
  if ((hostedZoneId === undefined) !== (hostedZoneName === undefined)) {
    throw new Error("Context apiOriginHostedZoneId and apiOriginHostedZoneName go together");
  }
  return { domainName, certificateArn, hostedZoneId, hostedZoneName, secretVersionId: context("apiOriginSecretVersion") };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const consoleAssetDir = fileURLToPath(new URL("../web/dist", import.meta.url));
  if (!existsSync(`${consoleAssetDir}/index.html`)) {
    throw new Error("The console is not built (no web/dist/index.html): run npm run build:web before cdk synth or deploy");
  }
  const app = new App();
  // Account and region of the CLI profile; unset (environment-agnostic) when synthesizing offline.
  defineApp(app, { env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION }, consoleAssetDir });
  // cdk-nag runs as a CDK validation plugin: any unacknowledged finding fails `cdk synth` and `cdk deploy`.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}
