/**
 * The upgrade's backfill of the senders' records (docs/operations.md, "Upgrading to the senders' records"). A removal
 * revokes the invitations the person sent by reading their records of them (`keys.sentInvitation`), which each
 * invitation has had since it was sent; one sent by an earlier release has none, and its sender's removal would
 * leave it active. This writes the missing ones, once per stack, from the deployment (infra/backfill.ts).
 *
 * It reads the active invitations with a Scan of the sparse `by_invitation_sender` index (only those are in it, so
 * it reads nothing else), not a Query per sender: nothing lists the senders. Safe to run again and alongside the
 * service: a record is only put where none is (`putMissingSentRecord`), so one a resend moved to a later expiry is
 * kept; a record for an invitation used or revoked meanwhile is one the removal reads and skips.
 */
import { isKeyActorId } from "../api-keys/model.js";
import { now } from "../clock.js";
import { putMissingSentRecord } from "../membership/repository.js";
import { activeInvitationPages } from "./repository.js";

/** What one run did: active invitations read, records written, records already there, API keys' (which have none). */
export interface BackfillCounts {
  active: number;
  written: number;
  present: number;
  apiKeys: number;
}

/** Conditional puts in flight at once: hand-written batches, as a page is at most 1 MB and the puts are independent. */
const PARALLEL_PUTS = 25;

export async function backfillSentRecords(): Promise<BackfillCounts> {
  const counts: BackfillCounts = { active: 0, written: 0, present: 0, apiKeys: 0 };
  for await (const page of activeInvitationPages(now())) {
    counts.active += page.length;
    // An API key's invitation has no sender to remove (shared/invitations/issue.ts writes it no record either).
    const sent = page.filter((inv) => !isKeyActorId(inv.created_by_id));
    counts.apiKeys += page.length - sent.length;
    for (let start = 0; start < sent.length; start += PARALLEL_PUTS) {
      const batch = sent.slice(start, start + PARALLEL_PUTS);
      const written = await Promise.all(batch.map((inv) => putMissingSentRecord(inv.created_by_id, inv)));
      for (const w of written) counts[w ? "written" : "present"]++;
    }
  }
  return counts;
}
