/**
 * Hostile input against the institution and cohort endpoints, through the real gateway: fast-check bodies
 * (random JSON, wrong types per field, strings around every length limit and the 64 KiB body limit,
 * unicode with lone surrogates, RTL and NUL, prototype-pollution keys at every level, injection-looking
 * strings), path ids (random, encoded slashes, dot segments, very long, unicode) and query strings.
 *
 * Each input's expected answer comes from an oracle written from the contract (DESIGN.md §3), not from
 * the schema code: 413 over 64 KiB → 404 for an id that is not a visible institution → 400 without the
 * root key → 422 with each field's message → 201/200 with the stored values. Never a 5xx. Afterwards the
 * stored items hold no attribute outside the whitelist and the handlers' process shows no sign of
 * prototype pollution.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimsOf, eventsOf } from "../integration/helpers.js";
import { token, uniq, uniqEmail } from "../support/api.js";
import {
  answered,
  anyString,
  badId,
  eventsOutsideWhitelist,
  expectNoPollution,
  hit,
  hostileJson,
  hostileKey,
  hostileQuery,
  hostileString,
  INJECTIONS,
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

const INST = "/api/v1/institutions";
const MAX_BODY = 64 * 1024;
const NOT_FOUND = { error: "Institution not found or access denied" };
const BLANK = "Name can't be blank";
const TAKEN = "Registration number has already been taken";
const SETTINGS_KEYS = ["allow_student_enrollment", "require_verification", "auto_finalize", "email_notifications"] as const;
const TEXT_FIELDS = [
  ["registration_number", "Registration number", 64, undefined],
  ["address", "Address", 1000, undefined],
  ["contact_email", "Contact email", 254, /^[^\s@]+@[^\s@]+\.[^\s@]+$/],
  ["contact_phone", "Contact phone", 32, /^[0-9 +\-()]{5,32}$/],
] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (o: Obj, k: string) => Object.hasOwn(o, k);
const bytes = (body: unknown) => Buffer.byteLength(JSON.stringify(body));

let owner: string;
let ownerId: string;
let outsider: string;
let outsiderId: string;
/** Has a cohort: DELETE can only ever answer 422 for it. */
let keeper: { id: string };
/** The institution PATCH and PUT work on, as last answered. */
let target: Obj;
/** Registration numbers held in the owner's account (lower-cased) → institution id. */
const taken = new Map<string, string>();

beforeAll(async () => {
  const account = uniq("acct");
  owner = await token(uniqEmail("owner"), { superAdmin: true, account, name: "Hostile Owner" });
  outsider = await token(uniqEmail("outsider"), { superAdmin: true, account: uniq("acct") });
  ownerId = String(claimsOf(owner).sub);
  outsiderId = String(claimsOf(outsider).sub);
  const k = await send("POST", INST, { token: owner, json: { institution: { name: "Keeper" } } });
  keeper = k.body.institution;
  expect((await send("POST", `${INST}/${keeper.id}/cohorts`, { token: owner, json: { cohort: { name: "Keeps it" } } })).status).toBe(201);
  const t = await send("POST", INST, { token: owner, json: { institution: { name: "Target" } } });
  target = t.body.institution;
});

afterAll(() => printTally("institutions & cohorts"));

// --- the oracle ----------------------------------------------------------------------------------------

/** The contract's 422 messages for `input` (the object under `institution`), in no particular order. */
function fieldErrors(input: Obj, mode: "create" | "update"): string[] {
  const errors = new Set<string>();
  if (!has(input, "name")) {
    if (mode === "create") errors.add(BLANK);
  } else if (input.name === null) errors.add(BLANK);
  else if (typeof input.name !== "string") errors.add("Name is invalid");
  else if (input.name.trim() === "") errors.add(BLANK);
  else if (input.name.trim().length > 255) errors.add("Name is too long (maximum is 255 characters)");
  for (const [key, label, max, format] of TEXT_FIELDS) {
    if (!has(input, key) || input[key] === null) continue;
    const v = input[key];
    if (typeof v !== "string") errors.add(`${label} is invalid`);
    else if (v.trim().length > max) errors.add(`${label} is too long (maximum is ${max} characters)`);
    else if (v.trim() !== "" && format && !format.test(v.trim())) errors.add(`${label} is invalid`);
  }
  if (has(input, "settings")) {
    const s = input.settings;
    if (!isObj(s)) errors.add("Settings is invalid");
    else
      for (const k of SETTINGS_KEYS)
        if (has(s, k) && typeof s[k] !== "boolean") errors.add(`Settings ${k.replace(/_/g, " ")} must be true or false`);
  }
  return [...errors].sort();
}

/** The record after applying valid `input` over `base` (or over nothing, on create). */
function applied(base: Obj | undefined, input: Obj): Obj {
  const out: Obj = base
    ? { ...base }
    : { registration_number: null, address: null, contact_email: null, contact_phone: null, settings: {} };
  if (has(input, "name")) out.name = (input.name as string).trim();
  for (const [key] of TEXT_FIELDS) {
    if (!has(input, key)) continue;
    const v = input[key] === null ? "" : (input[key] as string).trim();
    out[key] = v === "" ? null : key === "contact_email" ? v.toLowerCase() : v;
  }
  if (isObj(input.settings)) {
    const settings = { ...(out.settings as Obj) };
    for (const k of SETTINGS_KEYS) if (has(input.settings, k)) settings[k] = input.settings[k];
    out.settings = settings;
  }
  return out;
}

const numberKey = (n: unknown) => (typeof n === "string" && n !== "" ? n.toLowerCase() : undefined);

interface Expected {
  status: number;
  body?: unknown;
  /** 422 `{errors}` in any order. */
  errors?: string[];
  record?: Obj;
}

function expectAnswer(res: RawResult, want: Expected, input: unknown) {
  const context = `input ${JSON.stringify(input)?.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(res.status, context).toBe(want.status);
  if (want.body !== undefined) expect(res.body, context).toEqual(want.body);
  if (want.errors) expect([...(res.body.errors ?? [])].sort(), context).toEqual(want.errors);
  if (res.status >= 400) expect(Object.keys(res.body), context).toEqual([res.body.errors ? "errors" : "error"]);
  if (want.record) expect(res.body.institution, context).toMatchObject(want.record);
}

/** Create (mode "create") or update of `base` (mode "update"): the answer the contract gives for `body`. */
function expectedWrite(body: unknown, mode: "create" | "update", base?: Obj): Expected {
  if (bytes(body) > MAX_BODY) return { status: 413, body: { error: "Request body too large" } };
  const sent = received(body);
  const input = isObj(sent) ? sent.institution : undefined;
  if (!isObj(input)) return { status: 400, body: { error: "param is missing or the value is empty: institution" } };
  const errors = fieldErrors(input, mode);
  if (errors.length > 0) return { status: 422, errors };
  const { updated_at: _u, ...record } = applied(base, input);
  const before = numberKey(base?.registration_number);
  const after = numberKey(record.registration_number);
  if (after !== undefined && after !== before && taken.has(after)) return { status: 422, body: { errors: [TAKEN] } };
  return { status: mode === "create" ? 201 : 200, record };
}

/** Keeps `taken` in step with what the API accepted. */
function noteNumbers(before: unknown, after: unknown, id: string) {
  const b = numberKey(before);
  const a = numberKey(after);
  if (b !== a && b !== undefined) taken.delete(b);
  if (a !== undefined) taken.set(a, id);
}

// --- generators ----------------------------------------------------------------------------------------

const validEmails = fc.constantFrom("a@b.co", "  Mixed.Case+tag@Example.COM ", "<script>@x.co", "o'brien@example.com", "x@y.z");
const validPhones = fc.constantFrom("+1 (555) 010-0000", "12345", " 00 00 00 ", "((((()))))", "+".repeat(32));

/** A field value: usually plausible (hostile but valid), sometimes null, of a wrong type, or far too long. */
function field(valid: fc.Arbitrary<unknown>, type: "string" | "boolean" | "object" = "string"): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 24, arbitrary: valid }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: wrongType(type) });
}

const settings = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...SETTINGS_KEYS), hostileKey), field(fc.boolean(), "boolean"), { maxKeys: 5 }),
  },
  { weight: 1, arbitrary: wrongType("object") },
);

/** Near the 64 KiB body limit: one long string in a field or an unknown key. */
const nearLimit = fc.integer({ min: MAX_BODY - 160, max: MAX_BODY + 40 }).map((n) => "a".repeat(n));

const institutionInput = () =>
  fc
    .tuple(
      fc.record(
        {
          name: field(fc.oneof(anyString, fc.constantFrom(...INJECTIONS, ...UNICODE))),
          registration_number: field(fc.oneof(fc.constant(uniq("REG")), hostileString, fc.constantFrom("", " ", "AbC", "abc"))),
          address: field(anyString),
          contact_email: field(fc.oneof({ weight: 6, arbitrary: validEmails }, { weight: 1, arbitrary: anyString })),
          contact_phone: field(fc.oneof({ weight: 6, arbitrary: validPhones }, { weight: 1, arbitrary: anyString })),
          settings,
        },
        { requiredKeys: [] },
      ),
      fc.dictionary(hostileKey, hostileJson, { maxKeys: 3 }),
      sometimes(pollution({ [outsiderId]: "cohort_super_admin", polluted: "yes", isCohortSuperAdmin: true }), 4),
      sometimes(fc.tuple(fc.constantFrom("name", "address", "zzz_unknown"), nearLimit), 10),
    )
    .map(([fields, extra, polluter, big]) => {
      let out = withKeys(fields, extra);
      if (polluter) out = withKeys(out, polluter);
      if (big) out = withKeys(out, { [big[0]]: big[1] });
      return out;
    });

/** Whole bodies: mostly `{institution: {...}}` with extra root keys, sometimes anything at all. */
const writeBody = (root: string, inner: fc.Arbitrary<unknown>) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(inner, fc.dictionary(hostileKey, hostileJson, { maxKeys: 2 }))
        .map(([v, extra]) => withKeys(extra, { [root]: v })),
    },
    { weight: 1, arbitrary: hostileJson },
    { weight: 1, arbitrary: wrongType("object").map((v) => ({ [root]: v })) },
    { weight: 1, arbitrary: pollution({ polluted: "yes" }) },
  );

const anyBody = fc.oneof({ weight: 3, arbitrary: hostileJson }, { weight: 1, arbitrary: pollution({ polluted: "yes" }) });
const withQuery = (path: string, q: [string, string][]) => (q.length > 0 ? `${path}?${queryString(q)}` : path);

// --- properties ----------------------------------------------------------------------------------------

describe("hostile input: institutions and cohorts", () => {
  it("POST /institutions: 413 / 400 / 422 / 201 exactly as the contract says, stored values as sent", async () => {
    await fc.assert(
      fc.asyncProperty(writeBody("institution", institutionInput()), hostileQuery, async (body, q) => {
        const want = expectedWrite(body, "create");
        const res = await hit("POST /api/v1/institutions", "POST", withQuery(INST, q), { token: owner, json: body });
        if (targetTooLong(res)) return;
        if (res.status === 201) noteNumbers(undefined, res.body.institution.registration_number, res.body.institution.id);
        expectAnswer(res, want, body);
        if (res.status === 201) expect(res.body.message).toBe("Institution created successfully");
      }),
      runs(220),
    );
  });

  for (const method of ["PATCH", "PUT"] as const) {
    it(`${method} /institutions/{id}: 404 for any id not visible, then 400 / 422 / 200 with the stored record`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: badId }),
          writeBody("institution", institutionInput()),
          async (id, body) => {
            const path = `${INST}/${id === undefined ? target.id : seg(id)}`;
            const want: Expected =
              bytes(body) > MAX_BODY
                ? { status: 413, body: { error: "Request body too large" } }
                : id !== undefined
                  ? { status: 404, body: NOT_FOUND }
                  : expectedWrite(body, "update", target);
            const res = await hit(`${method} /api/v1/institutions/{id}`, method, path, { token: owner, json: body });
            if (targetTooLong(res)) return;
            // The model follows the server first, so that a failure (and fast-check's shrinking) starts from the true state.
            const before = target;
            if (res.status === 200) {
              noteNumbers(target.registration_number, res.body.institution.registration_number, String(target.id));
              target = res.body.institution;
            }
            expectAnswer(res, want, { id, body, before });
            if (res.status === 200) expect(res.body.message).toBe("Institution updated successfully");
          },
        ),
        runs(method === "PATCH" ? 160 : 100),
      );
    });
  }

  it("GET /institutions: any body and query → 200 with exactly the caller's institutions", async () => {
    await fc.assert(
      fc.asyncProperty(anyBody, hostileQuery, async (body, q) => {
        const res = await hit("GET /api/v1/institutions", "GET", withQuery(INST, q), { token: owner, json: body });
        if (targetTooLong(res)) return;
        if (bytes(body) > MAX_BODY) return expectAnswer(res, { status: 413 }, body);
        expectAnswer(res, { status: 200 }, body);
        const ids = res.body.institutions.map((i: { id: string }) => i.id);
        expect(ids).toContain(keeper.id);
        expect(ids).toContain(target.id);
        for (const i of res.body.institutions)
          expect(Object.keys(i).sort()).toEqual([
            "contact_email",
            "created_at",
            "id",
            "is_super_admin",
            "name",
            "registration_number",
            "role",
          ]);
      }),
      runs(100),
    );
  });

  it("GET /institutions/{id}: malformed, unknown or encoded ids → 404; the real one → 200, whatever the body and query", async () => {
    await fc.assert(
      fc.asyncProperty(sometimes(badId, 2), anyBody, hostileQuery, async (id, body, q) => {
        const res = await hit("GET /api/v1/institutions/{id}", "GET", withQuery(`${INST}/${id === null ? target.id : seg(id)}`, q), {
          token: owner,
          json: body,
        });
        if (targetTooLong(res)) return;
        if (bytes(body) > MAX_BODY) return expectAnswer(res, { status: 413 }, body);
        if (id !== null) return expectAnswer(res, { status: 404, body: NOT_FOUND }, id);
        expectAnswer(res, { status: 200, record: { id: target.id, name: target.name } }, body);
      }),
      runs(150),
    );
  });

  it("DELETE /institutions/{id}: 404 for ids not visible, 422 for the one with a cohort; never deleted by a body", async () => {
    await fc.assert(
      fc.asyncProperty(sometimes(badId, 2), anyBody, async (id, body) => {
        const res = await hit("DELETE /api/v1/institutions/{id}", "DELETE", `${INST}/${id === null ? keeper.id : seg(id)}`, {
          token: owner,
          json: body,
        });
        if (targetTooLong(res)) return;
        if (bytes(body) > MAX_BODY) return expectAnswer(res, { status: 413 }, body);
        if (id !== null) return expectAnswer(res, { status: 404, body: NOT_FOUND }, id);
        expectAnswer(res, { status: 422, body: { error: "Cannot delete institution with existing cohorts" } }, body);
      }),
      runs(100),
    );
  });

  it("GET /institutions/{id}/cohorts: 404 for ids not visible, 200 for the real one", async () => {
    await fc.assert(
      fc.asyncProperty(sometimes(badId, 2), anyBody, hostileQuery, async (id, body, q) => {
        const res = await hit(
          "GET /api/v1/institutions/{id}/cohorts",
          "GET",
          withQuery(`${INST}/${id === null ? keeper.id : seg(id)}/cohorts`, q),
          { token: owner, json: body },
        );
        if (targetTooLong(res)) return;
        if (bytes(body) > MAX_BODY) return expectAnswer(res, { status: 413 }, body);
        if (id !== null) return expectAnswer(res, { status: 404, body: NOT_FOUND }, id);
        expectAnswer(res, { status: 200 }, body);
        expect(res.body.cohorts.length).toBeGreaterThan(0);
      }),
      runs(100),
    );
  });

  it("POST /institutions/{id}/cohorts: 404 / 400 without `cohort` / 422 for a bad name / 201 with the trimmed name", async () => {
    const cohortInput = fc
      .tuple(
        fc.record({ name: field(fc.oneof(anyString, fc.constantFrom(...INJECTIONS, ...UNICODE))) }, { requiredKeys: [] }),
        fc.dictionary(hostileKey, hostileJson, { maxKeys: 3 }),
      )
      .map(([f, extra]) => withKeys(f, extra));
    await fc.assert(
      fc.asyncProperty(sometimes(badId, 3), writeBody("cohort", cohortInput), async (id, body) => {
        const res = await hit("POST /api/v1/institutions/{id}/cohorts", "POST", `${INST}/${id === null ? keeper.id : seg(id)}/cohorts`, {
          token: owner,
          json: body,
        });
        if (targetTooLong(res)) return;
        if (bytes(body) > MAX_BODY) return expectAnswer(res, { status: 413 }, body);
        if (id !== null) return expectAnswer(res, { status: 404, body: NOT_FOUND }, id);
        const sent = received(body);
        const input = isObj(sent) ? sent.cohort : undefined;
        if (!isObj(input))
          return expectAnswer(res, { status: 400, body: { error: "param is missing or the value is empty: cohort" } }, body);
        const name = input.name;
        if (typeof name !== "string" || name.trim() === "") return expectAnswer(res, { status: 422, body: { errors: [BLANK] } }, body);
        if (name.trim().length > 255)
          return expectAnswer(res, { status: 422, body: { errors: ["Name is too long (maximum is 255 characters)"] } }, body);
        expectAnswer(res, { status: 201 }, body);
        expect(res.body.cohort).toEqual({ id: expect.any(String), name: name.trim(), created_at: expect.any(String) });
      }),
      runs(150),
    );
  });

  it("afterwards: stored attributes within the whitelist, events' details too, no prototype pollution", async () => {
    const { problems, items } = await storedOutsideWhitelist([ownerId, outsiderId]);
    expect(problems).toEqual([]);
    expect(items).toBeGreaterThan(answered("POST /api/v1/institutions", 201));
    expect(eventsOutsideWhitelist((await eventsOf(owner)) as unknown as Record<string, unknown>[])).toEqual([]);
    await expectNoPollution(outsider, target.id as string);
    console.log(`[hostile] institutions: ${items} stored items checked against the whitelist`);
  });
});
