/**
 * The console (docs/console.md, deployed): the built single-page app in a private S3 bucket, served by CloudFront
 * through origin access control, with `/api/*` routed to the HTTP API on the same distribution, so the console
 * and the API share one origin and need no CORS.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Aws, Duration, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as cloudfront from "aws-cdk-lib/aws-cloudfront";
import * as origins from "aws-cdk-lib/aws-cloudfront-origins";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as s3deploy from "aws-cdk-lib/aws-s3-deployment";
import { rules } from "cdk-nag";
import { Construct } from "constructs";
import { consoleSecurityHeaders, SECURITY_HEADERS } from "../shared/security-headers.js";

/** The path prefix CloudFront sends to the API; every route of the route table lives under it. */
export const API_PATH_PATTERN = "/api/*";

/**
 * Viewer-request function of the console behaviour: a path whose last segment has no dot is a console route
 * (`/institutions/01K…`, `/invitations/accept`) and gets the app's `index.html`; files keep their path. Done
 * here rather than with the distribution's error responses, which would also turn the API's own 403 and 404
 * into the console page.
 */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.indexOf(".", uri.lastIndexOf("/") + 1) === -1) {
    request.uri = "/index.html";
  }
  return request;
}`;

/**
 * The wildcards of BucketDeployment's own grants, the only IAM5 findings acknowledged on its role: read of the
 * CDK staging bucket's asset objects, write and delete of the console bucket's objects, CloudFront invalidation
 * (`*`). Any other wildcard stays a finding.
 */
export const DEPLOYMENT_WILDCARDS: readonly RegExp[] = [
  /^Action::s3:(GetObject|GetBucket|List|DeleteObject|Abort)\*$/,
  // Environment-agnostic (`<AWS::Partition>`) or with the account's partition, account and region spelled out.
  /^Resource::arn:(<AWS::Partition>|aws[a-z-]*):s3:::cdk-[a-z0-9]+-assets-[^/]+\/\*$/,
  /^Resource::<ConsoleBucket[0-9A-F]{8}\.Arn>\/\*$/,
  /^Resource::\*$/,
];

/**
 * A response headers policy that sends exactly `headers` (lower-case names), overriding the origin's: each
 * security header CloudFront knows goes in its typed setting (CloudFront refuses them as custom headers), any
 * other as a custom header. An unknown security header is an error, so that the source cannot gain a header
 * the deployed policy silently drops.
 */
export function responseHeaders(
  headers: Readonly<Record<string, string>>,
  { hsts }: { hsts: boolean },
): Pick<cloudfront.ResponseHeadersPolicyProps, "securityHeadersBehavior" | "customHeadersBehavior"> {
  const security: cloudfront.ResponseSecurityHeadersBehavior = {
    ...(hsts && { strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true } }),
  };
  const custom: cloudfront.ResponseCustomHeader[] = [];
  const referrer = new Map(Object.values(cloudfront.HeadersReferrerPolicy).map((p) => [String(p), p]));
  for (const [name, value] of Object.entries(headers)) {
    if (name === "content-security-policy")
      Object.assign(security, { contentSecurityPolicy: { contentSecurityPolicy: value, override: true } });
    else if (name === "x-content-type-options") {
      if (value !== "nosniff") throw new Error(`x-content-type-options: CloudFront sends only nosniff, not ${value}`);
      Object.assign(security, { contentTypeOptions: { override: true } });
    } else if (name === "x-frame-options") {
      const frameOption =
        value === "DENY"
          ? cloudfront.HeadersFrameOption.DENY
          : value === "SAMEORIGIN"
            ? cloudfront.HeadersFrameOption.SAMEORIGIN
            : undefined;
      if (!frameOption) throw new Error(`x-frame-options: no CloudFront setting for ${value}`);
      Object.assign(security, { frameOptions: { frameOption, override: true } });
    } else if (name === "referrer-policy") {
      const referrerPolicy = referrer.get(value);
      if (!referrerPolicy) throw new Error(`referrer-policy: no CloudFront setting for ${value}`);
      Object.assign(security, { referrerPolicy: { referrerPolicy, override: true } });
    } else if (name === "strict-transport-security" || name === "x-xss-protection") {
      throw new Error(`${name}: set it through CloudFront's typed setting`);
    } else custom.push({ header: name, value, override: true });
  }
  return {
    securityHeadersBehavior: security,
    ...(custom.length > 0 && { customHeadersBehavior: { customHeaders: custom } }),
  };
}

export interface ConsoleProps {
  /** The built console (`web/dist`), with an `index.html`. */
  readonly assetDir: string;
  /** Domain of the HTTP API's default endpoint (`<id>.execute-api.<region>.amazonaws.com`). */
  readonly apiDomain: string;
  /** Written to `/config.json` for the console to read at start. */
  readonly config: Readonly<Record<string, string>>;
  /** Server access logs of the bucket (the distribution's own go there too, through console-logs.ts). */
  readonly logBucket: s3.IBucket;
  /** A WAF web ACL (scope CLOUDFRONT) to attach. */
  readonly webAclArn?: string;
  /** Log group of the deployment's function. */
  readonly deploymentLogGroup: logs.ILogGroup;
  /** A header CloudFront adds to every API request (the origin secret, shared/origin.ts), with a custom origin domain. */
  readonly apiOriginHeader?: { readonly name: string; readonly value: string };
  /** The `/api/*` behaviour's viewer-request function: institution API keys to the machines' API (infra/machine-api.ts). */
  readonly apiRequestFunction?: cloudfront.IFunction;
}

export class Console extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly deployment: s3deploy.BucketDeployment;
  /** `https://<distribution domain>`: the console, and the API under `/api/`. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ConsoleProps) {
    super(scope, id);
    if (!existsSync(join(props.assetDir, "index.html"))) {
      throw new Error(`The console build is missing: no index.html in ${props.assetDir} (run npm run build:web)`);
    }

    this.bucket = new s3.Bucket(this, "Bucket", {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: "console-bucket/",
      // Kept on `cdk destroy` like the tables: emptying it first would need one more custom resource.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const spaRewrite = new cloudfront.Function(this, "SpaRewrite", {
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: "Console routes get index.html",
    });

    const region = Stack.of(this).region;
    // The local console server's set, from the one source (shared/security-headers.ts), plus HSTS (HTTPS only here).
    const cognitoOrigin = `https://cognito-idp.${region}.${Aws.URL_SUFFIX}`;
    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, "SecurityHeaders", {
      comment: "Console: the local console server's security headers, and strict transport",
      // The managed login's origin (`cognitoDomain`, an origin already) for single sign-on's token exchange.
      ...responseHeaders(consoleSecurityHeaders(cognitoOrigin, props.config.cognitoDomain ?? ""), { hsts: true }),
    });
    // API Gateway's own answers (401, 404, 413, 429) carry neither: CloudFront adds them to every API answer.
    const apiHeaders = new cloudfront.ResponseHeadersPolicy(this, "ApiHeaders", {
      comment: "API: no caching anywhere, no type sniffing, on API Gateway's own answers too",
      ...responseHeaders(SECURITY_HEADERS, { hsts: true }),
    });

    const api = new origins.HttpOrigin(props.apiDomain, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      // Under the HTTP API's 30 s integration limit the export may need most of.
      readTimeout: Duration.seconds(30),
      // One way in: the functions refuse a request without it (it replaces a viewer's header of that name).
      ...(props.apiOriginHeader && { customHeaders: { [props.apiOriginHeader.name]: props.apiOriginHeader.value } }),
    });

    this.distribution = new cloudfront.Distribution(this, "Distribution", {
      comment: "Institution Administration console and API",
      defaultRootObject: "index.html",
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      // No legacy logging: it always writes the query string, an accept link's token included. The access logs
      // are standard logging v2 with chosen fields (console-logs.ts).
      ...(props.webAclArn !== undefined && { webAclId: props.webAclArn }),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        compress: true,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        [API_PATH_PATTERN]: {
          origin: api,
          // Redirecting a POST to HTTPS would lose its body: plain HTTP is refused instead.
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          // Nothing of the API is cached (it answers `Cache-Control: no-store` anyway).
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Every viewer header (Authorization included) and every query string, but not Host: API Gateway
          // routes on its own host name and answers 403 to the distribution's.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: apiHeaders,
          compress: true,
          ...(props.apiRequestFunction && {
            functionAssociations: [{ function: props.apiRequestFunction, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
          }),
        },
      },
    });

    this.url = `https://${this.distribution.distributionDomainName}`;

    // Own role instead of the default one, which attaches the AWS-managed basic execution policy (cdk-nag IAM4).
    const deploymentRole = new iam.Role(this, "DeploymentRole", {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: "Copies the console build to its bucket and invalidates the distribution",
    });
    props.deploymentLogGroup.grantWrite(deploymentRole);
    this.deployment = new s3deploy.BucketDeployment(this, "Deployment", {
      role: deploymentRole,
      sources: [s3deploy.Source.asset(props.assetDir), s3deploy.Source.jsonData("config.json", props.config)],
      destinationBucket: this.bucket,
      // Revalidated on every load (a 304 when unchanged): a new deployment shows at once, with no stale index.html
      // pointing at deleted bundles.
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ["/*"],
      memoryLimit: 512,
      logGroup: props.deploymentLogGroup,
    });

    // cdk-nag acknowledges exact findings, and some name the staging bucket (account, region, qualifier): the rule
    // itself lists them, and only the expected ones are acknowledged.
    const policy = deploymentRole.node.tryFindChild("DefaultPolicy")?.node.defaultChild as iam.CfnPolicy | undefined;
    const findings = policy ? rules.iam.IAMNoWildcardPermissions(policy) : [];
    for (const finding of Array.isArray(findings) ? findings : []) {
      if (!DEPLOYMENT_WILDCARDS.some((pattern) => pattern.test(finding))) continue;
      Validations.of(deploymentRole).acknowledge({
        id: `AwsSolutions-IAM5[${finding}]`,
        reason:
          "BucketDeployment's own grants: read of the CDK staging bucket's asset objects, write and delete of the console " +
          "bucket's objects, and CloudFront invalidation (no resource-level scope in its grant).",
      });
    }
    // The deployment's function is a singleton at stack level, named by CDK.
    for (const child of Stack.of(this).node.children) {
      if (child.node.id.startsWith("Custom::CDKBucketDeployment")) {
        Validations.of(child).acknowledge({
          id: "AwsSolutions-L1",
          reason: "BucketDeployment's handler runtime (Python, with the AWS CLI layer) is chosen and upgraded by aws-cdk-lib.",
        });
      }
    }
    Validations.of(this.distribution).acknowledge({
      id: "AwsSolutions-CFR1",
      reason: "Administrators and invitees sign in from anywhere; access is decided by Cognito, not by country.",
    });
    Validations.of(this.distribution).acknowledge({
      id: "AwsSolutions-CFR3",
      reason:
        "Access logs are CloudFront standard logging v2 (console-logs.ts: an AWS::Logs::Delivery to the access-log bucket), " +
        "which this rule does not see; the legacy logging it looks for always writes the query string, invitation tokens included.",
    });
    Validations.of(this.distribution).acknowledge({
      id: "AwsSolutions-CFR4",
      reason:
        "The distribution uses its default *.cloudfront.net certificate, whose minimum TLS version CloudFront does not let " +
        "a distribution raise; a custom domain with its own certificate (TLSv1.2_2021) is a per-deployment choice.",
    });
    if (props.webAclArn === undefined) {
      Validations.of(this.distribution).acknowledge({
        id: "AwsSolutions-CFR2",
        reason: "No WAF web ACL in this environment (settings.ts: on in prod, -c waf=true elsewhere).",
      });
    }
  }
}
