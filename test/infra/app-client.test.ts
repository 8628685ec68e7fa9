/**
 * The pool's managed login and the console's app client in the synthesized template (docs/sso.md, "The user
 * pool's side" and "The redeploy rule"): a Cognito prefix domain that Cognito accepts; the client made by a custom
 * resource with the console's OAuth (code grant, `openid email profile`, back to the console) and every other
 * setting it had, and never its providers (only the rule they are listed by), so a second synth (and so a deployment) hands CloudFormation nothing
 * that would reset the providers the service listed; the resource's function may make exactly its calls.
 */
import type { CfnResource } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { APP_CLIENT_ACTIONS } from "../../infra/app-client.js";
import { domainPrefixOf } from "../../infra/identity.js";
import { PROVIDERS_RULE } from "../../shared/sso/app-client.js";
import { appClientSettings, build, type Json, newApp } from "./support.js";

const first = build({}, { validate: false, app: newApp() });
const { stack, resources, logicalId, ofType } = first;
const poolId = logicalId(stack.userPool);
const crId = logicalId(stack.consoleClient.resource);
const fnId = logicalId(stack.consoleClient.function);
const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);
const consoleUrl = "https://{{{'Fn::GetAtt':['ConsoleDistribution022D3262','DomainName']}}}";

/** Cognito's rule for a prefix domain: lower-case letters, digits and hyphens, at most 63, none of its reserved words. */
const validPrefix = (p: string) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(p) && !/aws|amazon|cognito/.test(p);

describe("the pool's managed-login domain", () => {
  it("is a prefix domain of the stack's name and the account", () => {
    const [[, domain]] = ofType("AWS::Cognito::UserPoolDomain") as [[string, Json]];
    expect(domain.Properties.UserPoolId).toEqual({ Ref: poolId });
    expect(domain.Properties.Domain).toEqual({ "Fn::Join": ["", ["teststack-", { Ref: "AWS::AccountId" }]] });
  });

  it("is valid for Cognito whatever the stack's name, and unchanged for a name that was valid already", () => {
    const account = "123456789012";
    for (const name of [
      "InstitutionAdmin",
      "institution-admin-prod",
      "AwsCognitoAmazonAdmin",
      "amawszon",
      "A".repeat(128),
      "Cognito",
      "My_Stack.2",
    ]) {
      const prefix = `${domainPrefixOf(name)}-${account}`;
      expect(validPrefix(prefix), `${name} → ${prefix}`).toBe(true);
    }
    expect(domainPrefixOf("InstitutionAdmin-dev")).toBe("institutionadmin-dev");
    expect(domainPrefixOf("AwsCognitoAmazonAdmin")).toBe("admin");
    expect(domainPrefixOf("A".repeat(128))).toHaveLength(50);
  });
});

describe("the console's app client", () => {
  it("is made by the custom resource, not declared: the template has no AWS::Cognito::UserPoolClient", () => {
    expect(ofType("AWS::Cognito::UserPoolClient")).toEqual([]);
    expect(resources[crId].Type).toBe("Custom::ConsoleAppClient");
    expect(resources[crId].Properties.UserPoolId).toEqual({ Ref: poolId });
    // The API's authorizer, the console's config and the SSO functions name the client the resource made.
    expect(JSON.stringify(resources)).toContain(JSON.stringify({ Ref: crId }));
  });

  it("has the console's OAuth, code grant only, and keeps the password flow, token validities and attributes", () => {
    expect(appClientSettings(first)).toEqual({
      ClientName: "console",
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ["code"],
      AllowedOAuthScopes: ["openid", "email", "profile"],
      CallbackURLs: [`${consoleUrl}/sso/callback`],
      LogoutURLs: [`${consoleUrl}/`],
      ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
      PreventUserExistenceErrors: "ENABLED",
      EnableTokenRevocation: true,
      IdTokenValidity: 60,
      AccessTokenValidity: 60,
      RefreshTokenValidity: 720,
      TokenValidityUnits: { IdToken: "minutes", AccessToken: "minutes", RefreshToken: "minutes" },
      ReadAttributes: ["custom:account_id", "email", "email_verified", "name"],
      WriteAttributes: ["name"],
    });
  });

  it("also sends people back to the console's own origin when appBaseUrl serves it", () => {
    const other = build({ appBaseUrl: "https://admin.example.edu" }, { validate: false, id: "OtherOrigin", app: newApp() });
    const s = appClientSettings(other);
    expect(s.CallbackURLs).toEqual([`${consoleUrl}/sso/callback`, "https://admin.example.edu/sso/callback"]);
    expect(s.LogoutURLs).toEqual([`${consoleUrl}/`, "https://admin.example.edu/"]);
  });

  it("leaves the supported providers out of CloudFormation's hands: none in the template, the same resource on a second synth", () => {
    const second = build({}, { validate: false, app: newApp() });
    for (const b of [first, second]) {
      expect(JSON.stringify(b.resources)).not.toContain("SupportedIdentityProviders");
      expect(JSON.stringify(b.template.toJSON())).not.toContain("SupportedIdentityProviders");
    }
    // Unchanged settings: CloudFormation sees no change of the resource and sends no update at all.
    expect(second.resources[crId]).toEqual(resources[crId]);
  });

  it("names the rule its function lists the providers by (the institutions' alone, no COGNITO beside them), so a new rule updates a deployed client once", () => {
    expect(resources[crId].Properties.ProvidersRule).toBe("institutions-only");
    expect(resources[crId].Properties.ProvidersRule).toBe(PROVIDERS_RULE);
  });

  it("is made by a function that may make exactly its client calls on the pool's ARN and take the client's lock, with logs kept", () => {
    const roleId = stack.getLogicalId(stack.consoleClient.function.role?.node.defaultChild as CfnResource);
    const statements: Json[] = ofType("AWS::IAM::Policy")
      .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    const cognito = statements.filter((s) => asList<string>(s.Action).some((a) => a.startsWith("cognito-idp:")));
    expect(cognito).toHaveLength(1);
    expect(asList<string>(cognito[0].Action).sort()).toEqual([...APP_CLIENT_ACTIONS].sort());
    expect(cognito[0].Action).toEqual(expect.arrayContaining(["cognito-idp:DescribeUserPoolClient", "cognito-idp:UpdateUserPoolClient"]));
    expect(cognito[0].Resource).toEqual({ "Fn::GetAtt": [poolId, "Arn"] });
    const dynamo = statements.filter((s) => asList<string>(s.Action).some((a) => a.startsWith("dynamodb:")));
    expect(dynamo).toEqual([
      {
        Sid: "ClientLock",
        Effect: "Allow",
        Action: ["dynamodb:PutItem", "dynamodb:DeleteItem"],
        Resource: { "Fn::GetAtt": [logicalId(stack.mainTable), "Arn"] },
        Condition: { "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": ["SSOPOOL"] } },
      },
    ]);
    const others = statements.filter((s) => !asList<string>(s.Action).some((a) => /^(cognito-idp|dynamodb|logs):/.test(a)));
    expect(others).toEqual([]);
    // Its log group, and the framework's, with the stack's retention.
    const fn = resources[fnId];
    const group = resources[fn.Properties.LoggingConfig.LogGroup.Ref];
    expect(group.Properties.RetentionInDays).toBeGreaterThan(0);
    const provider = ofType("AWS::Lambda::Function").filter(([id]) => id !== fnId && JSON.stringify(resources[id]).includes(fnId));
    expect(provider).toHaveLength(1);
    const [[, framework]] = provider as [[string, Json]];
    expect(resources[framework.Properties.LoggingConfig.LogGroup.Ref].Properties.RetentionInDays).toBe(group.Properties.RetentionInDays);
  });
});
