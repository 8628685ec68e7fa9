/**
 * One way in (docs/iam.md, docs/one-way-in.md), as synthesized: with a custom origin domain, a Secrets Manager
 * secret resolved at deployment into CloudFront's API origin header and every route function's environment;
 * without one, neither. cdk-nag finds nothing unacknowledged either way.
 */
import type { CfnResource } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { ORIGIN_VERIFY_HEADER } from "../../shared/origin.js";
import { handlers } from "../../shared/routes.js";
import { build, type Json, nagFindings } from "./support.js";

const ORIGIN = { domainName: "api-origin.example.com", certificateArn: "arn:aws:acm:us-east-1:111111111111:certificate/abc" };
const fronted = build({ apiOrigin: ORIGIN }, { id: "OneWayInFronted", validate: false });
const plain = build({}, { id: "OneWayInPlain", validate: false });

const apiOrigin = (b: typeof plain): Json => {
  const [[, d]] = b.ofType("AWS::CloudFront::Distribution") as [[string, Json]];
  return (d.Properties.DistributionConfig.Origins as Json[]).find((o) => o.CustomOriginConfig);
};
/** A route function's environment, or the SCIM authorizer's ("scim/authorizer"), which refuses without the secret too. */
const envOf = (b: typeof plain, handler: string): Json => {
  const fn = handler === "scim/authorizer" ? b.stack.scimAuthorizerFunction : b.stack.functions.get(handler);
  return b.resources[b.stack.getLogicalId(fn?.node.defaultChild as CfnResource)].Properties.Environment.Variables;
};
/** Every function that answers a request: the route functions and the SCIM authorizer. */
const answering = () => [...handlers().keys(), "scim/authorizer"];

describe("the origin secret", () => {
  it("with an origin domain: one generated secret, in CloudFront's origin header and every route function's environment, the SCIM authorizer's too", () => {
    const secrets = fronted.ofType("AWS::SecretsManager::Secret");
    expect(secrets).toHaveLength(1);
    const [[secretId, secret]] = secrets as [[string, Json]];
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
    // A dynamic reference: the value is resolved by CloudFormation at deployment, never written in the template.
    const reference = {
      "Fn::Join": ["", ["{{resolve:secretsmanager:", { Ref: secretId }, ":SecretString:::}}"]],
    };
    expect(apiOrigin(fronted).OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: reference }]);
    for (const handler of answering()) expect(envOf(fronted, handler).ORIGIN_VERIFY_SECRET, handler).toEqual(reference);
  });

  it("names a secret version when deployed with one (rotation)", () => {
    const rotated = build({ apiOrigin: { ...ORIGIN, secretVersionId: "v-2" } }, { id: "OneWayInRotated", validate: false });
    expect(JSON.stringify(apiOrigin(rotated).OriginCustomHeaders)).toContain(":SecretString:::v-2}}");
  });

  it("without one: no secret, no header, nothing to check", () => {
    expect(plain.ofType("AWS::SecretsManager::Secret")).toHaveLength(0);
    expect(apiOrigin(plain).OriginCustomHeaders).toBeUndefined();
    for (const handler of answering()) expect(envOf(plain, handler).ORIGIN_VERIFY_SECRET, handler).toBeUndefined();
  });

  it("cdk-nag: clean with and without the origin domain", () => {
    expect(nagFindings(fronted.stack)).toEqual([]);
    expect(nagFindings(plain.stack)).toEqual([]);
  });
});
