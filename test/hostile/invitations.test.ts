/**
 * Hostile input against the invitation endpoints, through the real gateway: bodies and query strings with
 * random JSON, wrong types, unicode, pollution keys and injection-looking strings for `institution_id`,
 * `email` and `role` (which may come from the body or the query, body first), random path ids, and accept
 * bodies built around real tokens read from the mail.
 *
 * The oracle follows the contract's check order (docs/contract/README.md#identity-and-access, docs/contract/README.md): institution 404 → role 400 → e-mail 422
 * → pending limit 429 → already has access 422 → 201; revoke/resend: invitation 404 → state 422 → 200,
 * a resend within its cooldown 429 (the file sends far fewer mails than the hourly and daily bounds);
 * accept: always 422 for this caller (nobody invites the owner). It keeps a model of every invitation the
 * API created, so the answers and the list can be predicted exactly.
 *
 * Afterwards: no response of this file holds any full token mailed during the run (or its hash), stored
 * attribute names are within the whitelist, and no prototype pollution shows.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../shared/invitations/token.js";
import { paths } from "../../shared/routes.js";
import { claimsOf, eventsOf } from "../integration/helpers.js";
import { sentMail, token, uniq, uniqEmail } from "../support/api.js";
import { ACCEPT, INV } from "../support/flows.js";
import {
  anyString,
  badId,
  eventsOutsideWhitelist,
  expectNoPollution,
  hit,
  hostileJson,
  hostileKey,
  hostileQuery,
  INJECTIONS,
  mergedQuery,
  pollution,
  printTally,
  queryString,
  type RawResult,
  received,
  runs,
  seg,
  send,
  sometimes,
  storedOutsideWhitelist,
  targetTooLong,
  UNICODE,
  withKeys,
  wrongType,
} from "./support.js";

const NOT_FOUND = { error: "Institution not found or access denied" };
const INVITATION_NOT_FOUND = { error: "Invitation not found" };
const LIMIT = 3;
/** The resend cooldown (docs/contract/README.md, default): no resend sooner than this after the invitation's last mail. */
const COOLDOWN_MS = 600_000;
const TOO_MANY_MAILS = { error: "Too many invitation e-mails, try again later" };
/** The contract's e-mail rule as shared/invitations/schema.ts states it (ASCII local part, DNS domain). */
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

let owner: string;
let ownerEmail: string;
let ownerId: string;
let outsider: string;
let outsiderId: string;
let institutionId: string;
let domain: string;
/** Every response body and header of this file, for the token check at the end. */
const responses: string[] = [];

interface Model {
  email: string;
  role: string;
  status: "active" | "revoked";
  /** When its last mail left, as this process saw it: between the start and the end of the request that sent it (ms). */
  mailed: { from: number; to: number };
}
const invitations = new Map<string, Model>();
const activeFor = (email: string) => [...invitations.values()].filter((i) => i.email === email && i.status === "active").length;

async function call(endpoint: string, method: string, path: string, body: unknown): Promise<RawResult> {
  const res = await hit(endpoint, method, path, { token: owner, json: body });
  responses.push(`${JSON.stringify(res.headers)} ${res.text}`);
  return res;
}

beforeAll(async () => {
  domain = `${uniq("inv")}.test`;
  const account = uniq("acct");
  ownerEmail = uniqEmail("owner", domain);
  owner = await token(ownerEmail, { superAdmin: true, account, name: "Hostile Inviter" });
  outsider = await token(uniqEmail("outsider"), { superAdmin: true, account: uniq("acct") });
  ownerId = String(claimsOf(owner).sub);
  outsiderId = String(claimsOf(outsider).sub);
  const inst = await send("POST", paths.institutions, { token: owner, json: { institution: { name: "Inviting U" } } });
  institutionId = inst.body.institution.id;
});

afterAll(() => printTally("invitations"));

// --- oracle helpers ------------------------------------------------------------------------------------

/** Parameters as the handlers pick them: from the body when it has the key (not undefined), else the query. */
function params(body: unknown, query: Map<string, string>) {
  const sent = received(body);
  const b = isObj(sent) ? sent : {};
  const pick = (k: string) => (Object.hasOwn(b, k) && b[k] !== undefined ? b[k] : query.get(k));
  return { institution_id: pick("institution_id"), email: pick("email"), role: pick("role") };
}

const normalEmail = (v: unknown): string | undefined => {
  if (typeof v !== "string") return undefined;
  const e = v.trim().toLowerCase();
  return e.length <= 254 && EMAIL.test(e) ? e : undefined;
};

function expectAnswer(res: RawResult, status: number, body: unknown, input: unknown) {
  const context = `input ${JSON.stringify(input)?.slice(0, 400)} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(res.status, context).toBe(status);
  if (body !== undefined) expect(res.body, context).toEqual(body);
}

// --- generators ----------------------------------------------------------------------------------------

/** A small pool of addresses (so the pending limit is reached), written with case and spaces as users do. */
const poolEmail = fc.tuple(fc.nat({ max: 11 }), fc.constantFrom("", " ", "\t"), fc.boolean()).map(([n, pad, upper]) => {
  const e = `pool${n}@${domain}`;
  return `${pad}${upper ? e.toUpperCase() : e}${pad}`;
});
const emailValue = () =>
  fc.oneof(
    { weight: 6, arbitrary: poolEmail },
    { weight: 1, arbitrary: fc.constantFrom(ownerEmail, ` ${ownerEmail.toUpperCase()} `) },
    { weight: 2, arbitrary: anyString },
    {
      weight: 1,
      arbitrary: fc.constantFrom("<script>@x.co", "a@b", "ü@example.com", "a@b.c\u0000", `${"a".repeat(250)}@b.co`, "' OR 1=1 --@x.co"),
    },
    { weight: 1, arbitrary: wrongType("string") },
  );
const roleValue = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("cohort_admin", "cohort_super_admin") },
  { weight: 1, arbitrary: fc.constantFrom(" cohort_admin", "COHORT_ADMIN", "admin", "super_admin", "cohort_admin\u0000") },
  { weight: 1, arbitrary: anyString },
  { weight: 1, arbitrary: wrongType("string") },
);
const institutionValue = () =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(institutionId) },
    { weight: 1, arbitrary: badId },
    { weight: 1, arbitrary: wrongType("string") },
    { weight: 1, arbitrary: fc.constant(` ${institutionId}`) },
  );

/** Body and query: each parameter in the body, the query, both or neither. */
const paramsInput = (keys: readonly ("institution_id" | "email" | "role")[]) =>
  fc
    .tuple(
      fc.tuple(
        ...keys.map((k) =>
          fc.tuple(
            fc.constant(k),
            k === "email" ? emailValue() : k === "role" ? roleValue : institutionValue(),
            fc.constantFrom("body", "body", "body", "query", "query", "both", "none"),
          ),
        ),
      ),
      fc.dictionary(hostileKey, hostileJson, { maxKeys: 2 }),
      hostileQuery,
      sometimes(pollution({ [outsiderId]: "cohort_super_admin", polluted: "yes" }), 4),
      sometimes(hostileJson, 8),
    )
    .map(([fields, extra, q, polluter, replaceBody]) => {
      let body: unknown = withKeys(extra, {});
      const query: [string, string][] = q.filter(([k]) => !keys.includes(k as never));
      for (const [k, value, where] of fields) {
        if (where === "body" || where === "both") body = withKeys(body, { [k]: value });
        if (where === "query" || where === "both") query.push([k, typeof value === "string" ? value : JSON.stringify(value)]);
      }
      if (polluter) body = withKeys(body, polluter);
      if (replaceBody !== null) body = replaceBody;
      return { body, query };
    });

const pathFor = (base: string, q: [string, string][]) => (q.length > 0 ? `${base}?${queryString(q)}` : base);

/** An invitation id from the model (most of the time) or one that is not. */
const invitationId = () =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(invitations.size > 0 ? [...invitations.keys()] : ["none"])) },
    { weight: 1, arbitrary: badId },
  );

// --- properties ----------------------------------------------------------------------------------------

describe("hostile input: invitations", () => {
  it("POST /admin/invitations: 404 / 400 role / 422 e-mail / 429 limit / 422 has access / 201, params from body or query", async () => {
    await fc.assert(
      fc.asyncProperty(paramsInput(["institution_id", "email", "role"]), async ({ body, query }) => {
        const p = params(body, mergedQuery(query));
        const from = Date.now();
        const res = await call(`POST ${paths.invitations}`, "POST", pathFor(INV, query), body);
        const mailed = { from, to: Date.now() };
        if (targetTooLong(res)) return;
        const email = normalEmail(p.email);
        if (res.status === 201)
          invitations.set(res.body.invitation.id, { email: String(email), role: String(p.role), status: "active", mailed });
        const input = { body, query };
        if (p.institution_id !== institutionId) return expectAnswer(res, 404, NOT_FOUND, input);
        if (p.role !== "cohort_admin" && p.role !== "cohort_super_admin")
          return expectAnswer(res, 400, { error: "Invalid role specified" }, input);
        if (!email) return expectAnswer(res, 422, { errors: ["Email is invalid"] }, input);
        const before = activeFor(email) - (res.status === 201 ? 1 : 0);
        if (before >= LIMIT) {
          expectAnswer(res, 429, { error: "Too many pending invitations for this email" }, input);
          expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
          return;
        }
        if (email === ownerEmail) return expectAnswer(res, 422, { errors: ["Email already has access to this institution"] }, input);
        expectAnswer(res, 201, undefined, input);
        expect(res.body).toEqual({
          invitation: {
            id: expect.any(String),
            email,
            role: p.role,
            token_preview: expect.stringMatching(/^[A-Za-z0-9_-]{8}\.\.\.$/),
            expires_at: expect.any(String),
          },
          message: `Invitation sent to ${email}`,
        });
      }),
      runs(220),
    );
    expect(invitations.size).toBeGreaterThan(10);
  });

  it("GET /admin/invitations: 404 unless the institution is the caller's; 200 with exactly the active ones", async () => {
    await fc.assert(
      fc.asyncProperty(
        paramsInput(["institution_id"]),
        fc.constantFrom(undefined, "true", "false", "TRUE", "1", ""),
        async ({ body, query }, showUsed) => {
          const q =
            showUsed === undefined
              ? query.filter(([k]) => k !== "show_used")
              : [...query.filter(([k]) => k !== "show_used"), ["show_used", showUsed] as [string, string]];
          const merged = mergedQuery(q);
          const p = params(body, merged);
          const res = await call(`GET ${paths.invitations}`, "GET", pathFor(INV, q), body);
          if (targetTooLong(res)) return;
          if (p.institution_id !== institutionId) return expectAnswer(res, 404, NOT_FOUND, { body, q });
          // The list pages: a bad limit, then any cursor not issued by the service, is 400.
          const limitText = (merged.get("limit") ?? "").trim();
          const limit = limitText === "" ? 50 : /^\d{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
          if (!(limit >= 1 && limit <= 200))
            return expectAnswer(res, 400, { error: "Invalid limit: must be an integer between 1 and 200" }, { body, q });
          if ((merged.get("cursor") ?? "").trim() !== "") return expectAnswer(res, 400, { error: "Invalid cursor" }, { body, q });
          expectAnswer(res, 200, undefined, { body, q });
          const want = merged.get("show_used") === "true" ? 0 : [...invitations.values()].filter((i) => i.status === "active").length;
          expect(res.body.invitations).toHaveLength(Math.min(want, limit));
        },
      ),
      runs(120),
    );
  });

  it("DELETE /admin/invitations/{id}: 404 institution / 404 invitation / 422 not active / 200 revoked", async () => {
    await fc.assert(
      fc.asyncProperty(invitationId(), paramsInput(["institution_id"]), async (id, { body, query }) => {
        const p = params(body, mergedQuery(query));
        const res = await call(`DELETE ${paths.invitations}/{id}`, "DELETE", pathFor(`${INV}/${seg(id)}`, query), body);
        if (targetTooLong(res)) return;
        const inv = invitations.get(id);
        if (res.status === 200 && inv) inv.status = "revoked";
        const input = { id, body, query };
        if (p.institution_id !== institutionId) return expectAnswer(res, 404, NOT_FOUND, input);
        if (!inv) return expectAnswer(res, 404, INVITATION_NOT_FOUND, input);
        if (res.status === 200) return expectAnswer(res, 200, { message: "Invitation revoked" }, input);
        expectAnswer(res, 422, { error: "Failed to revoke invitation" }, input);
      }),
      runs(150),
    );
  });

  it("POST /admin/invitations/{id}/resend: 404 institution / 404 invitation / 422 not active / 200 with a new mail", async () => {
    // A few surely active ones besides whatever the revoke property left active.
    for (let i = 0; i < 4; i++) {
      const email = `fresh${i}@${domain}`;
      const from = Date.now();
      const res = await send("POST", INV, { token: owner, json: { institution_id: institutionId, email, role: "cohort_admin" } });
      expect(res.status, res.text).toBe(201);
      invitations.set(res.body.invitation.id, { email, role: "cohort_admin", status: "active", mailed: { from, to: Date.now() } });
    }
    await fc.assert(
      fc.asyncProperty(invitationId(), paramsInput(["institution_id"]), async (id, { body, query }) => {
        const p = params(body, mergedQuery(query));
        const from = Date.now();
        const res = await call(`POST ${paths.invitations}/{id}/resend`, "POST", pathFor(`${INV}/${seg(id)}/resend`, query), body);
        const to = Date.now();
        if (targetTooLong(res)) return;
        const input = { id, body, query };
        if (p.institution_id !== institutionId) return expectAnswer(res, 404, NOT_FOUND, input);
        const inv = invitations.get(id);
        if (!inv) return expectAnswer(res, 404, INVITATION_NOT_FOUND, input);
        if (inv.status !== "active") return expectAnswer(res, 422, { error: `Cannot resend a ${inv.status} invitation` }, input);
        // The cooldown: refused while surely within 600 s of the last mail, sent once surely past it (a second's
        // margin either side for the boundary); in between, either.
        const last = inv.mailed;
        if (res.status === 200) inv.mailed = { from, to };
        if (to < last.from + COOLDOWN_MS - 1_000 || (res.status === 429 && from < last.to + COOLDOWN_MS + 1_000)) {
          expectAnswer(res, 429, TOO_MANY_MAILS, input);
          expect(res.headers["retry-after"], "Retry-After").toMatch(/^[1-9]\d*$/);
          return;
        }
        expectAnswer(res, 200, undefined, input);
        expect(res.body).toMatchObject({ invitation: { id, email: inv.email }, message: `Invitation resent to ${inv.email}` });
      }),
      runs(150),
    );
  });

  it("POST /invitations/accept: any body, real tokens included, is 422 for a caller who was not invited", async () => {
    const mailed = await tokensMailed();
    expect(mailed.length).toBeGreaterThan(0);
    const realToken = fc.constantFrom(...mailed);
    const body = fc.oneof(
      hostileJson,
      pollution({ polluted: "yes" }),
      fc.record({ token: fc.oneof(anyString, wrongType("string")) }),
      fc.tuple(realToken, fc.dictionary(hostileKey, hostileJson, { maxKeys: 2 })).map(([t, extra]) => withKeys(extra, { token: t })),
      fc
        .tuple(realToken, fc.constantFrom("", " ", "=", "%00", "\u0000", "x", ...INJECTIONS, ...UNICODE), fc.boolean())
        .map(([t, junk, before]) => ({
          token: before ? `${junk}${t}` : `${t}${junk}`,
        })),
      realToken.map((t) => ({ token: [t] })),
      realToken.map((t) => ({ token: { $eq: t } })),
    );
    await fc.assert(
      fc.asyncProperty(body, hostileQuery, async (b, q) => {
        const res = await call(`POST ${paths.invitationsAccept}`, "POST", pathFor(ACCEPT, q), b);
        if (targetTooLong(res)) return;
        expectAnswer(res, 422, { error: "Invalid or expired invitation" }, b);
      }),
      runs(150),
    );
  });

  it("afterwards: no response holds a mailed token or its hash; stored attributes within the whitelist; no pollution", async () => {
    const mailed = await tokensMailed();
    const hashes = mailed.map(hashToken);
    console.log(`[hostile] invitations: ${responses.length} responses checked against ${mailed.length} mailed tokens`);
    expect(mailed.length).toBeGreaterThan(20);
    for (const text of responses) {
      for (const t of mailed) expect(text.includes(t), `a response holds a full token: ${text.slice(0, 200)}`).toBe(false);
      for (const h of hashes) expect(text.includes(h), "a response holds a token hash").toBe(false);
    }
    // The oracle's premise: the file stays below the hourly (100 per institution) and daily (10 per address) mail bounds.
    const mails = (await sentMail()).filter((m) => m.destination.to.some((a) => a.toLowerCase().endsWith(`@${domain}`)));
    expect(mails.length).toBeLessThan(100);
    const perAddress = new Map<string, number>();
    for (const m of mails) for (const a of m.destination.to) perAddress.set(a.toLowerCase(), (perAddress.get(a.toLowerCase()) ?? 0) + 1);
    expect(Math.max(0, ...perAddress.values())).toBeLessThan(10);
    const { problems } = await storedOutsideWhitelist([ownerId, outsiderId]);
    expect(problems).toEqual([]);
    expect(eventsOutsideWhitelist((await eventsOf(owner)) as unknown as Record<string, unknown>[])).toEqual([]);
    await expectNoPollution(outsider, institutionId);
  });
});

/** Every token in mail sent to this file's addresses (each resend mails a new one). */
async function tokensMailed(): Promise<string[]> {
  const mails = (await sentMail()).filter((m) => m.destination.to.some((a) => a.toLowerCase().endsWith(`@${domain}`)));
  const out = new Set<string>();
  for (const m of mails)
    for (const match of `${m.body.text ?? ""} ${m.body.html ?? ""}`.matchAll(/[?&]token=([A-Za-z0-9_-]{43})/g)) out.add(match[1] as string);
  return [...out];
}
