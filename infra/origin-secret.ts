/**
 * One way in (docs/one-way-in.md): a generated secret that CloudFormation resolves at deployment into CloudFront's
 * origin header and every function's environment; shared/origin.ts refuses a request without it.
 */
import { SecretValue, type Stack, Validations } from "aws-cdk-lib";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";

/**
 * The secret's value as a deploy-time reference. `versionId` names the version to deploy after a rotation
 * (docs/one-way-in.md): CloudFormation does not notice a changed value behind an unchanged reference.
 */
export function originVerifySecret(stack: Stack, versionId: string | undefined): string {
  const secret = new secretsmanager.Secret(stack, "OriginVerifySecret", {
    description: "The header CloudFront sends the API (x-origin-verify): requests without it are refused",
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
  });
  Validations.of(secret).acknowledge({
    id: "AwsSolutions-SMG4",
    reason:
      "Rotated by hand with a deployment (docs/one-way-in.md): CloudFormation resolves it into the distribution and the functions together.",
  });
  return SecretValue.secretsManager(secret.secretArn, { ...(versionId !== undefined && { versionId }) }).unsafeUnwrap();
}
