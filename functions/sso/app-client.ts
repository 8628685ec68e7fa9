/**
 * The console app client's custom resource (docs/sso.md, "The redeploy rule"), invoked by CloudFormation through
 * CDK's custom-resource framework at deployment. Create makes the client with every provider the pool has; Update
 * writes the stack's settings and keeps the providers the client lists, holding the service's lock on the client
 * (shared/sso/client-lock.ts) so that a connection made during the deployment is kept too; a new pool is a new
 * client (CloudFormation then deletes the old one); Delete deletes it.
 */
import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from "aws-lambda";
import * as v from "valibot";
import { cognitoClient } from "../../shared/cognito.js";
import { type ClientSettings, createAppClient, deleteAppClient, updateAppClient } from "../../shared/sso/app-client.js";
import { underClientLock } from "../../shared/sso/client-lock.js";

// Deployment time: no sign-in waits on it, so each call may take longer than a request's would.
const cognito = cognitoClient({ connectionTimeout: 2_000, requestTimeout: 10_000 });

/** The resource's properties (CloudFormation passes strings): the pool, and the settings as JSON. */
const Properties = v.object({
  UserPoolId: v.pipe(v.string(), v.minLength(1)),
  Client: v.pipe(v.string(), v.parseJson(), v.record(v.string(), v.unknown())),
});

/** An app client's id, as Cognito makes them: what a failed Create leaves as the physical id is none. */
const CLIENT_ID = /^[\w+]{1,128}$/;

export async function handler(event: CdkCustomResourceEvent): Promise<CdkCustomResourceResponse> {
  const { UserPoolId: poolId, Client } = v.parse(Properties, event.ResourceProperties);
  const settings = Client as ClientSettings;
  const created = async () => {
    const id = await createAppClient(cognito, poolId, settings);
    return { PhysicalResourceId: id, Data: { ClientId: id } };
  };
  if (event.RequestType === "Create") return created();
  const clientId = event.PhysicalResourceId;
  if (event.RequestType === "Delete") {
    if (CLIENT_ID.test(clientId)) await deleteAppClient(cognito, poolId, clientId);
    return { PhysicalResourceId: clientId };
  }
  // Another pool: a client of its own, and CloudFormation deletes the old one after.
  if (event.OldResourceProperties.UserPoolId !== poolId) return created();
  await underClientLock(clientId, () => updateAppClient(cognito, poolId, clientId, settings));
  return { PhysicalResourceId: clientId, Data: { ClientId: clientId } };
}
