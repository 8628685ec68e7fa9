/**
 * The optional WAF web ACL of the CloudFront distribution (`-c waf=true`, on in prod): AWS managed rule groups
 * and a rate-based rule per client address. A CloudFront web ACL lives in us-east-1 whatever the stack's region;
 * `infra/app.ts` puts it in a stack of its own there when the API's region is another one.
 */
import { Aws, CfnOutput, CfnRule, Fn, Stack, type StackProps, Token } from "aws-cdk-lib";
import * as wafv2 from "aws-cdk-lib/aws-wafv2";
import { Construct } from "constructs";

/** AWS managed rule groups, in evaluation order after the rate rule. */
export const MANAGED_RULE_GROUPS = [
  "AWSManagedRulesAmazonIpReputationList",
  "AWSManagedRulesCommonRuleSet",
  "AWSManagedRulesKnownBadInputsRuleSet",
] as const;

export interface ConsoleWebAclProps {
  /** Requests per 5 minutes from one IP address before it is blocked. */
  readonly rateLimit: number;
}

const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });

export class ConsoleWebAcl extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: ConsoleWebAclProps) {
    super(scope, id);
    this.webAcl = new wafv2.CfnWebACL(this, "WebAcl", {
      scope: "CLOUDFRONT",
      defaultAction: { allow: {} },
      description: "Institution Administration console and API: managed rules and a per-address rate limit",
      visibilityConfig: visibility("InstitutionAdminWebAcl"),
      rules: [
        {
          name: "RateLimitPerAddress",
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { aggregateKeyType: "IP", limit: props.rateLimit, evaluationWindowSec: 300 } },
          visibilityConfig: visibility("RateLimitPerAddress"),
        },
        ...MANAGED_RULE_GROUPS.map((name, i) => ({
          name,
          priority: i + 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: "AWS",
              name,
              // The common rule set blocks bodies over 8 KB; the API takes up to 64 KiB and answers 413 past
              // that itself, so this one rule only counts.
              ...(name === "AWSManagedRulesCommonRuleSet" && {
                ruleActionOverrides: [{ name: "SizeRestrictions_BODY", actionToUse: { count: {} } }],
              }),
            },
          },
          visibilityConfig: visibility(name),
        })),
      ],
    });
  }

  get arn(): string {
    return this.webAcl.attrArn;
  }
}

/** A stack in us-east-1 that holds only the web ACL, for an API deployed in another region. */
export class ConsoleWebAclStack extends Stack {
  readonly webAcl: ConsoleWebAcl;

  constructor(scope: Construct, id: string, props: StackProps & ConsoleWebAclProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    this.webAcl = new ConsoleWebAcl(this, "ConsoleWebAcl", props);
    new CfnOutput(this, "WebAclArn", { value: this.webAcl.arn });
  }
}

/**
 * The console's web ACL made in `stack` itself, which must then be in us-east-1: refused at synth for another
 * region, and for an environment-agnostic template by a rule that fails the deployment before anything is made.
 */
export function webAclHere(stack: Stack, rateLimit: number): ConsoleWebAcl {
  if (!Token.isUnresolved(stack.region) && stack.region !== "us-east-1") {
    throw new Error(`A CloudFront web ACL lives in us-east-1: pass webAclArn for a stack in ${stack.region} (app.ts does)`);
  }
  const acl = new ConsoleWebAcl(stack, "ConsoleWebAcl", { rateLimit });
  new CfnRule(stack, "WebAclRegion", {
    assertions: [
      {
        assert: Fn.conditionEquals(Aws.REGION, "us-east-1"),
        assertDescription: "The web ACL of a CloudFront distribution must be created in us-east-1: deploy there, or let app.ts place it",
      },
    ],
  });
  return acl;
}
