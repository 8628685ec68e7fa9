/**
 * One door for audited writes (shared/audit.ts `commitWithEvents`): every event, whichever use case writes it,
 * is counted as the `SecurityEventRecorded` metric (EMF on stdout, by `event_type`), webhooks and full exports
 * included. The use cases run in this process against DynamoDB Local with metrics on (the local stack turns them
 * off), and stdout is read back as CloudWatch would read it. The export worker is registered as a no-op: only
 * the start's event is under test here.
 */
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Caller } from "../../shared/caller.js";
import { METRIC } from "../../shared/observability.js";

// Before the modules below are imported: Powertools and the webhook settings read the environment at load.
Object.assign(process.env, { POWERTOOLS_METRICS_DISABLED: "false", WEBHOOK_ALLOW_LOOPBACK_HTTP: "true" });
delete process.env.POWERTOOLS_DEV;

const { createWebhook, deleteWebhook } = await import("../../shared/webhooks/service.js");
const { startExport } = await import("../../shared/exports/start.js");
const { runInProcess } = await import("../../shared/exports/dispatch.js");
runInProcess(async () => {});

// biome-ignore lint/suspicious/noExplicitAny: EMF documents are untyped JSON.
type Json = any;

/** Runs `fn` and returns the `event_type`s of the `SecurityEventRecorded` documents it wrote to stdout. */
async function recordedTypes(fn: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  });
  try {
    await fn();
  } finally {
    out.mockRestore();
  }
  return lines
    .map((l) => JSON.parse(l) as Json)
    .filter((d) =>
      (d._aws?.CloudWatchMetrics as Json[] | undefined)?.some((c) => c.Metrics.some((m: Json) => m.Name === METRIC.securityEventRecorded)),
    )
    .map((d) => d.event_type as string);
}

const superAdmin = (): Caller => ({
  id: `user-${randomUUID()}`,
  email: "door@example.test",
  name: null,
  accountId: `acct-door-${randomUUID()}`,
  isCohortSuperAdmin: true,
  emailVerified: true,
  ip: "203.0.113.7",
});

afterEach(() => vi.restoreAllMocks());

describe("the one door for audited writes", () => {
  it("counts webhook_created and webhook_deleted as SecurityEventRecorded", async () => {
    const caller = superAdmin();
    let id = "";
    const created = await recordedTypes(async () => {
      id = (await createWebhook(caller, { webhook: { url: "http://127.0.0.1:9/door" } })).webhook.id;
    });
    expect(created).toEqual(["webhook_created"]);
    expect(await recordedTypes(() => deleteWebhook(caller, id))).toEqual(["webhook_deleted"]);
  });

  it("counts a full export's security_events_exported as SecurityEventRecorded", async () => {
    const caller = superAdmin();
    expect(await recordedTypes(() => startExport(caller, { format: "csv" }))).toEqual(["security_events_exported"]);
  });
});
