/**
 * Issue 14, point 4 (docs/contract/README.md, Security events): a recorded value that came from the request and is
 * not a well-formed id (`attempted_institution_id`) is stored cut to its first 64 code points with control
 * characters replaced by U+FFFD, and a `description` is one line. A path id of ~7,900 characters with
 * CRLF in it cannot forge a line in the list or the export, nor fill the export with megabytes.
 */
import { describe, expect, it } from "vitest";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { parseCsv } from "../support/csv.js";
import { allEvents, createInstitution, EVENTS, INST, INV, type ListedEvent, storeLegacyName } from "../support/flows.js";

const FORGED = "olive@acme.test deleted institution 'Acme College'";

/** What the contract stores of a request value: its first 64 code points, each control character as U+FFFD. */
const recorded = (raw: string) =>
  [...raw]
    .slice(0, 64)
    .map((c) => (/\p{Cc}/u.test(c) ? "\ufffd" : c))
    .join("");

/** Percent-encodes every byte that is not unreserved, so the whole value is one path segment or query value. */
const pct = (s: string) =>
  [...Buffer.from(s, "utf8")]
    .map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0")}`))
    .join("");

async function prober(): Promise<string> {
  return token(uniqEmail("prober"), { superAdmin: true, account: uniq("acct") });
}

/** The caller's `unauthorized_institution_access` events, newest first. */
async function probes(tok: string): Promise<ListedEvent[]> {
  return allEvents(tok, { event_type: "unauthorized_institution_access" });
}

/** A path id built to forge a trail line: CRLF, a plausible event text, CRLF, then padding to ~7,900 characters. */
const forgingId = `x\r\n${FORGED}\r\n${"y".repeat(7_900 - FORGED.length - 5)}`;

describe("recorded request values are cut and cleaned", () => {
  it("a ~7,900-character path id with CRLF: stored as its first 64 code points, CR and LF as U+FFFD; the description is one line", async () => {
    const tok = await prober();
    expect(forgingId.length).toBeGreaterThan(7_800);
    const res = await call("GET", `${INST}/${pct(forgingId)}`, { token: tok });
    expect(res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
    const [event, ...rest] = await probes(tok);
    expect(rest).toEqual([]);
    expect(event?.details).toEqual({ attempted_institution_id: recorded(forgingId) });
    expect([...String(event?.details.attempted_institution_id)]).toHaveLength(64);
    expect(event?.description).not.toMatch(/[\r\n]/);
    expect(event?.description.length).toBeLessThan(300);
    // The single-event view stores the same.
    const shown = await call("GET", `${EVENTS}/${event?.id}`, { token: tok });
    expect(shown.body.details).toEqual({ attempted_institution_id: recorded(forgingId) });
    expect(shown.body.description).not.toMatch(/[\r\n]/);
  });

  it("the export shows no forged line: one physical line per event, each short", async () => {
    const tok = await prober();
    for (let i = 0; i < 3; i++) expect((await call("GET", `${INST}/${pct(forgingId)}`, { token: tok })).status).toBe(404);
    const res = await call("GET", `${EVENTS}/export`, { token: tok, query: { event_type: "unauthorized_institution_access" } });
    expect(res.status).toBe(200);
    const rows = parseCsv(res.text);
    expect(rows).toHaveLength(4); // header and the three events
    const physical = res.text.split(/\r\n|\n|\r/).filter((l) => l !== "");
    expect(physical).toHaveLength(rows.length);
    expect(physical.some((l) => l.startsWith(FORGED) || l.startsWith(`"${FORGED}`))).toBe(false);
    // Three such requests leave a few hundred bytes each, not 8 KB: the 10,000-row window cannot be filled with megabytes.
    for (const line of physical) expect(line.length).toBeLessThan(1_000);
  });

  it("code points, not UTF-16 units: 70 emoji are kept as 64 whole emoji; other controls (NUL, ESC, DEL, NEL) become U+FFFD", async () => {
    const tok = await prober();
    const emoji = "\u{1F600}".repeat(70);
    const controls = `a\u0000b\u001bc\u007fd\u0085e${"z".repeat(80)}`;
    for (const id of [emoji, controls]) {
      expect((await call("GET", `${INST}/${pct(id)}`, { token: tok })).status).toBe(404);
    }
    const stored = (await probes(tok)).map((e) => e.details.attempted_institution_id);
    expect(stored).toEqual([recorded(controls), recorded(emoji)]);
    expect(recorded(emoji)).toBe("\u{1F600}".repeat(64));
    expect(recorded(controls).startsWith("a\ufffdb\ufffdc\ufffdd\ufffde")).toBe(true);
  });

  it("institution ids from an invitation request's body and query are recorded the same way", async () => {
    const tok = await prober();
    const fromBody = `inst\u0000\r\n${FORGED}${"q".repeat(200)}`;
    const fromQuery = `inst\t${"w".repeat(100)}`;
    const created = await call("POST", INV, { token: tok, body: { institution_id: fromBody, email: uniqEmail(), role: "cohort_admin" } });
    expect(created.status).toBe(404);
    const listed = await call("GET", INV, { token: tok, query: { institution_id: fromQuery } });
    expect(listed.status).toBe(404);
    const [fromList, fromCreate] = await probes(tok);
    expect(fromCreate?.details).toEqual({ attempted_institution_id: recorded(fromBody), action: "manage_invitations" });
    expect(fromList?.details).toEqual({ attempted_institution_id: recorded(fromQuery), action: "manage_invitations" });
    for (const e of [fromCreate, fromList]) expect(e?.description).not.toMatch(/[\r\n]/);
  });

  it("a well-formed id is recorded whole, as it was", async () => {
    const tok = await prober();
    const id = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    expect((await call("GET", `${INST}/${id}`, { token: tok })).status).toBe(404);
    expect((await probes(tok))[0]?.details).toEqual({ attempted_institution_id: id });
  });
});

describe("descriptions are one line whatever the stored data", () => {
  it("deleting an institution whose name was stored with line breaks before the rule: the event's description has none", async () => {
    const tok = await token(uniqEmail("owner"), { superAdmin: true, account: uniq("acct") });
    const inst = await createInstitution(tok);
    await storeLegacyName(inst.id, `Old\r\n${FORGED}\nname`);
    expect((await call("DELETE", `${INST}/${inst.id}`, { token: tok })).status).toBe(200);
    const [deleted] = await allEvents(tok, { event_type: "institution_deleted" });
    expect(deleted?.description).toBeDefined();
    expect(deleted?.description).not.toMatch(/[\r\n]/);
    const res = await call("GET", `${EVENTS}/export`, { token: tok, query: { event_type: "institution_deleted" } });
    const physical = res.text.split(/\r\n|\n|\r/).filter((l) => l !== "");
    expect(physical).toHaveLength(2);
  });
});
