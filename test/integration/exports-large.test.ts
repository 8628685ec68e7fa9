/**
 * 50,000 events exported in full through the local stack, as CSV and as JSON Lines, compared row by row with
 * the events seeded; the worker's peak RSS (in the gateway process) is recorded with each export.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { describe as describeEvent } from "../../shared/audit.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { streamKeys } from "../../shared/tables.js";
import { token, uniq, uniqEmail } from "../support/api.js";
import { parseCsv } from "../support/csv.js";
import { runExport } from "../support/exports.js";
import { type Seed, seedEvents, spreadSeeds } from "../support/seed-events.js";

const COUNT = 50_000;
const END = Date.UTC(2024, 8, 1);

const guard = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

interface Seeded extends Seed {
  readonly id: string;
}

async function memory(account: string, id: string) {
  const { Item } = await db.send(new GetCommand({ TableName: config.tables.main, Key: streamKeys.export(account, id) }));
  return { start: Number(Item?.rss_start_bytes), peak: Number(Item?.rss_peak_bytes) };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

describe(`full export of ${COUNT.toLocaleString("en")} events`, () => {
  const account = uniq("acct");
  let admin: string;
  let seeded: Seeded[];

  beforeAll(async () => {
    const seeds = spreadSeeds(account, COUNT, END, 30 * 86_400_000);
    const [tok, ids] = await Promise.all([token(uniqEmail("big-admin"), { superAdmin: true, account }), seedEvents(seeds)]);
    admin = tok;
    // Newest first, as the export writes them (the seeds are spread backwards from END, one per instant).
    seeded = seeds
      .map((s, i) => ({ ...s, id: ids[i] as string }))
      .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
  }, 600_000);

  it("as CSV: every event, newest first, each row the event's columns", async () => {
    const { export: e, file } = await runExport(admin, { format: "csv", to: new Date(END).toISOString() }, 300_000);
    expect(e.row_count).toBe(COUNT);
    const rows = parseCsv(file);
    expect(rows).toHaveLength(COUNT + 1);
    expect(rows[0]).toEqual(["id", "event_type", "created_at", "user_id", "user_email", "ip_address", "description", "details"]);
    seeded.forEach((s, i) => {
      const row = rows[i + 1];
      const want = [
        s.id,
        s.event.type,
        s.at.toISOString(),
        guard(s.caller.id),
        guard(s.caller.email),
        guard(s.caller.ip),
        guard(describeEvent(s.event.type, s.event.details, s.caller.email)),
        JSON.stringify(s.event.details, Object.keys(s.event.details).sort()),
      ];
      if (JSON.stringify(row) !== JSON.stringify(want)) expect(row, `row ${i + 1}`).toEqual(want);
    });
    const rss = await memory(account, e.id);
    console.log(`[exports] CSV of ${COUNT} rows (${mb(file.length)}): worker RSS ${mb(rss.start)} at start, ${mb(rss.peak)} at peak`);
    expect(rss.peak).toBeGreaterThanOrEqual(rss.start);
  }, 600_000);

  it("as JSON Lines: every event as show returns it, newest first", async () => {
    const { export: e, file } = await runExport(admin, { format: "jsonl", to: new Date(END).toISOString() }, 300_000);
    expect(e.row_count).toBe(COUNT);
    const lines = file.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(COUNT);
    seeded.forEach((s, i) => {
      const got = JSON.parse(lines[i] as string);
      const want = {
        id: s.id,
        event_type: s.event.type,
        user: { id: s.caller.id, email: s.caller.email, name: s.caller.name },
        ip_address: s.caller.ip,
        details: s.event.details,
        created_at: s.at.toISOString(),
        description: describeEvent(s.event.type, s.event.details, s.caller.email),
      };
      if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, `line ${i + 1}`).toEqual(want);
    });
    const rss = await memory(account, e.id);
    console.log(`[exports] JSONL of ${COUNT} rows (${mb(file.length)}): worker RSS ${mb(rss.start)} at start, ${mb(rss.peak)} at peak`);
    expect(rss.peak).toBeGreaterThanOrEqual(rss.start);
  }, 600_000);
});
