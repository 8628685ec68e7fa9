/**
 * The custom resource that backfills the senders' records of invitations (shared/invitations/backfill.ts,
 * infra/backfill.ts), invoked by CloudFormation through CDK's custom-resource framework: Create (the first deploy
 * of the release that brings it) and Update (a change of its properties) run the backfill; Delete does nothing (the
 * records stay, and expire with their invitations). An operator may invoke it by hand with `{"RequestType":"Create"}`
 * (docs/operations.md): it reads nothing else of the event.
 */
import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from "aws-lambda";
import { backfillSentRecords } from "../../shared/invitations/backfill.js";
import { logger } from "../../shared/telemetry.js";

/** One resource per stack: its physical id never changes, so an update never replaces it. */
export const BACKFILL_RESOURCE_ID = "sent-invitation-records";

export async function handler(event: Pick<CdkCustomResourceEvent, "RequestType">): Promise<CdkCustomResourceResponse> {
  if (event.RequestType === "Delete") return { PhysicalResourceId: BACKFILL_RESOURCE_ID };
  const counts = await backfillSentRecords();
  logger.info("Senders' records of invitations backfilled", { ...counts });
  return { PhysicalResourceId: BACKFILL_RESOURCE_ID, Data: counts };
}
