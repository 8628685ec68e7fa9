/**
 * Issue 38 item 2 (docs/code-structure.md): no key or path from a request reaches an object's prototype.
 *
 * `__proto__`, `constructor` and `prototype`, in each case (as is, upper, capitalised; fast-check adds mixed case)
 * and encoding (in a URL: as is, percent-encoded, percent-encoded twice; in JSON: as is, `_` as `\u005f`, every
 * character escaped), go to every route of shared/routes.ts, JSON API and SCIM, in every position the route has:
 * path parameters, query keys and values, JSON keys at every depth and as paths (`a.__proto__.b`,
 * `constructor.prototype.b`); on the SCIM routes also PATCH paths, value filters in them, the keys of PATCH values,
 * `filter`, `attributes` / `excludedAttributes`, resource bodies, and the connection's role mappings.
 *
 * The local gateway imports every handler into its one process (infra/local/gateway.ts `loadHandler`), as one warm
 * Lambda container serves request after request: a request that pollutes Object.prototype changes what every later
 * request of every tenant sees there. So after each input an unrelated tenant's institution list, trail and
 * directory answer exactly as before, and no answer is a 5xx. Before the fix, `PATCH /Users/:id` with the path
 * `__proto__.x` answered 200 and every later request of every tenant 500.
 *
 * SCIM paths and filters naming such a segment are refused (400 `invalidPath`; `invalidFilter` for `filter`);
 * elsewhere the keys are data: a directory's attributes keep them, a role mapping's group may be called
 * `Constructor` or `__proto__`.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths, type Route, routes } from "../../shared/routes.js";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution, INST } from "../support/flows.js";
import { connect, connectionPath, entraUser, SCIM, scim, URN } from "../support/scim.js";
import { hit, pct, printTally, type RawResult, runs, send, targetTooLong } from "./support.js";

const NAMES = ["__proto__", "constructor", "prototype"] as const;
/** As is, upper case, the first letter capitalised (`__Proto__`, `Constructor`). */
const CASES = [(s: string) => s, (s: string) => s.toUpperCase(), (s: string) => s.replace(/[a-z]/, (c) => c.toUpperCase())] as const;
const URL_ENCODINGS = ["as is", "percent", "percent twice"] as const;
const JSON_ENCODINGS = ["as is", "u005f", "every character"] as const;
type UrlEncoding = (typeof URL_ENCODINGS)[number];
type JsonEncoding = (typeof JSON_ENCODINGS)[number];

/** One spelling: a name in one case, with the encodings it travels in. */
interface Spelling {
  readonly name: string;
  readonly url: UrlEncoding;
  readonly json: JsonEncoding;
}

/**
 * Every name in every case, each with an encoding of each kind, as a Latin square: every (name, case), (name,
 * encoding) and (case, encoding) pair occurs once, in 9 spellings instead of 27.
 */
const SPELLINGS: readonly Spelling[] = NAMES.flatMap((name, i) =>
  CASES.map((c, j) => ({
    name: c(name),
    url: URL_ENCODINGS[(i + j) % 3] as UrlEncoding,
    json: JSON_ENCODINGS[(i + j) % 3] as JsonEncoding,
  })),
);
/** The three names as they are, for the forms that vary the position rather than the spelling. */
const PLAIN: readonly Spelling[] = NAMES.map((name) => ({ name, url: "as is", json: "as is" }));

const spelling: fc.Arbitrary<Spelling> = fc.record({
  name: fc.mixedCase(fc.constantFrom(...NAMES)),
  url: fc.constantFrom(...URL_ENCODINGS),
  json: fc.constantFrom(...JSON_ENCODINGS),
});

// --- encodings -----------------------------------------------------------------------------------------------

const percentAll = (s: string) => [...Buffer.from(s, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
/**
 * `s` as (part of) one URL component (path segment, query key or value) in `enc`; the server decodes once, so
 * twice-encoded it arrives as `%5F%5Fproto%5F%5F`.
 */
function inUrl(s: string, enc: UrlEncoding): string {
  if (enc === "percent") return percentAll(s);
  if (enc === "percent twice") return percentAll(s).replace(/%/g, "%25");
  return pct(s);
}

const PROTO = /__proto__|constructor|prototype/i;
const u = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
/** A JSON string literal for `s` in `enc`: the escapes decode to `s` again (JSON.parse). */
function jsonString(s: string, enc: JsonEncoding): string {
  const plain = JSON.stringify(s);
  if (enc === "u005f") return plain.replace(/_/g, "\\u005f");
  if (enc === "every character" && PROTO.test(s)) return `"${[...s].map(u).join("")}"`;
  return plain;
}

/** JSON text of `value` with every key and string in `enc` (own `__proto__` keys included). */
function jsonText(value: unknown, enc: JsonEncoding): string {
  if (Array.isArray(value)) return `[${value.map((v) => jsonText(v, enc)).join(",")}]`;
  if (typeof value === "string") return jsonString(value, enc);
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .map((k) => `${jsonString(k, enc)}:${jsonText((value as Record<string, unknown>)[k], enc)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** An object with these own keys, `__proto__` included as a key (not the prototype). */
function own(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/** What a naive merge would copy onto Object.prototype. */
const PAYLOAD = { polluted: "yes", isCohortSuperAdmin: true, x: "x" };

/**
 * `body` with the names as keys at every level of it: each `name: {payload, prototype: payload}` (so that both
 * `__proto__` and `constructor.prototype` merges would land) and `name.polluted` as a dotted key.
 */
function infest(body: unknown, names: readonly string[], depth = 0): unknown {
  if (Array.isArray(body)) return body.map((v) => infest(v, names, depth + 1));
  if (body === null || typeof body !== "object") return body;
  const entries: [string, unknown][] = Object.entries(body).map(([k, v]) => [k, depth < 3 ? infest(v, names, depth + 1) : v]);
  for (const n of names) entries.push([n, own([...Object.entries(PAYLOAD), ["prototype", PAYLOAD]])], [`${n}.polluted`, "yes"]);
  return own(entries);
}

// --- the stack ------------------------------------------------------------------------------------------------

let owner: string;
let institutionId: string;
let directory: string;
let userId: string;
let groupId: string;
let bystander: string;
let bystanderDirectory: string;
let before: unknown;
/** A well-formed id nothing has. */
const UNKNOWN = "01ARZ3NDEKTSV4RRFFQ69G5FAV";

/** What an unrelated tenant sees: its institutions, its trail, its directory's users (each status and body). */
async function bystanderView() {
  const seen = await Promise.all([
    send("GET", paths.institutions, { token: bystander }),
    send("GET", `${paths.securityEvents}?limit=20`, { token: bystander }),
    send("GET", `${SCIM}/Users`, { token: bystanderDirectory }),
  ]);
  return seen.map((r) => ({ status: r.status, body: r.body }));
}

beforeAll(async () => {
  owner = await token(uniqEmail("proto-owner"), { superAdmin: true });
  institutionId = (await createInstitution(owner)).id;
  directory = (await connect(owner, institutionId)).token;
  const user = await scim(directory, "POST", "/Users", entraUser(uniqEmail("proto-user")));
  expect(user.status, user.text).toBe(201);
  userId = user.body.id;
  const group = await scim(directory, "POST", "/Groups", { displayName: uniq("Proto group"), members: [{ value: userId }] });
  expect(group.status, group.text).toBe(201);
  groupId = group.body.id;

  bystander = await token(uniqEmail("proto-bystander"), { superAdmin: true });
  const theirs = await createInstitution(bystander);
  bystanderDirectory = (await connect(bystander, theirs.id)).token;
  expect((await scim(bystanderDirectory, "POST", "/Users", entraUser(uniqEmail("proto-theirs")))).status).toBe(201);
  before = await bystanderView();
  expect(before).toEqual(await bystanderView());
  for (const seen of before as { status: number }[]) expect(seen.status).toBe(200);
});

afterAll(() => printTally("prototype (every route)"));

// --- inputs -----------------------------------------------------------------------------------------------------

interface Input {
  readonly what: string;
  /** Path and query, as sent. */
  readonly target: string;
  /** JSON text, sent as is. */
  readonly body?: string;
  /** The answer the contract gives, when it is one answer. */
  readonly expect?: { readonly status: number; readonly scimType?: string };
}

const label = (r: Route) => `${r.method} ${r.path}`;
const paramsOf = (r: Route) => [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/** The value a route's parameter gets when another position carries the input: the real resource where that is safe. */
function real(r: Route, param: string): string {
  // Never the real one where it would end the test's own resources: a DELETE, or a POST that rotates the token.
  if (r.method === "DELETE" || (r.handler === "scim/connection" && r.method === "POST")) return UNKNOWN;
  // A greedy parameter's own route is the list with a trailing slash: an empty rest.
  if (param.endsWith("+")) return "";
  if (r.path.startsWith(`${INST}/{id}`) && param === "id") return institutionId;
  if (r.path.startsWith(`${SCIM}/Users/`)) return userId;
  if (r.path.startsWith(`${SCIM}/Groups/`)) return groupId;
  return UNKNOWN;
}

function pathWith(r: Route, values: Record<string, string>): string {
  return r.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? pct(real(r, name)));
}

/** Query keys the routes read, each given a name as its value. */
const KNOWN_KEYS = [
  "limit",
  "cursor",
  "institution_id",
  "email",
  "role",
  "from",
  "to",
  "event_type",
  "user_id",
  "user_email",
  "show_used",
  "startIndex",
  "count",
  "filter",
  "attributes",
  "excludedAttributes",
];

/** The names as query keys (plain, `name[polluted]`, `name.polluted`) and as the values of every key the routes read. */
function queryWith(spellings: readonly Spelling[]): string {
  const pairs: string[] = [];
  for (const s of spellings) {
    pairs.push(`${inUrl(s.name, s.url)}=${inUrl(s.name, s.url)}`);
    pairs.push(`${inUrl(s.name, s.url)}${pct("[polluted]")}=yes`, `${inUrl(s.name, s.url)}.polluted=yes`);
  }
  KNOWN_KEYS.forEach((k, i) => {
    const s = spellings[i % spellings.length] as Spelling;
    pairs.push(`${k}=${inUrl(s.name, s.url)}`);
  });
  return pairs.join("&");
}

/** A valid body of each route that takes one, so that the names travel as far into the use case as they can. */
function baseBody(r: Route): unknown {
  switch (r.handler) {
    case "institutions/create":
      return { institution: { name: uniq("Proto College"), settings: { auto_finalize: true } } };
    case "institutions/update":
      return { institution: { address: "2 Main St", settings: { auto_finalize: false } } };
    case "cohorts/create":
      return { cohort: { name: uniq("Proto") } };
    case "administrators/update":
      return { role: "cohort_admin" };
    case "administrators/transfer":
      return { user_id: "3c9a5e1d-7b42-4f0e-9a61-2d8b7c4e5f10" };
    case "invitations/create":
    case "invitations/list":
      return { institution_id: institutionId, email: uniqEmail("proto-invitee"), role: "cohort_admin" };
    case "exports/create":
      return { format: "csv", from: "2024-06-01T00:00:00Z" };
    case "webhooks/create":
      // No URL: a webhook that would then be called on every event of the account is not what this tests.
      return { webhook: {} };
    case "scim/connection":
      return { role_mappings: { Staff: "cohort_admin" } };
    case "scim/service":
      if (r.method === "PATCH") return { schemas: [URN.patch], Operations: [{ op: "replace", path: "title", value: "Dean" }] };
      if (r.path.includes("/Users")) return entraUser(uniqEmail("proto-scim"));
      return { displayName: uniq("Proto group"), members: [{ value: userId }] };
    default:
      return { token: "not-a-token", institution_id: institutionId };
  }
}

const REFUSED_PATH = { status: 400, scimType: "invalidPath" };
const REFUSED_FILTER = { status: 400, scimType: "invalidFilter" };

/** A SCIM attribute path naming `n` in each position one can: alone, parent, child, URN part, value filter, bracket. */
const PATH_FORMS = (n: string): string[] => [
  `${n}.polluted`,
  n,
  `name.${n}.polluted`,
  `${n}.prototype.polluted`,
  `emails[type eq "work"].${n}`,
  `emails[${n} eq "x"]`,
  `${n}[type eq "work"].polluted`,
  `${n}:polluted`,
  `${URN.user}:${n}.polluted`,
  `${URN.enterprise}:${n}`,
  `emails["${n}"]`,
  `["${n}"].polluted`,
];

/** A filter naming `n` as an attribute (or as an operator): never data. */
const FILTER_FORMS = (n: string): string[] => [
  `${n} eq "x"`,
  `${n} pr`,
  `${n}.polluted eq "x"`,
  `name.${n} eq "x"`,
  `emails[${n} eq "x"]`,
  `emails[type eq "work"].${n} eq "x"`,
  `${n}[value eq "x"]`,
  `${URN.user}:${n} eq "x"`,
  `userName pr ${n} userName pr`,
];

function scimInputs(r: Route): Input[] {
  const out: Input[] = [];
  const list = r.method === "GET" && /\/(Users|Groups)(\/\{proxy\+\})?$/.test(r.path);
  const one = r.method === "GET" && /\/(Users|Groups)\/\{id\}$/.test(r.path);
  if (list) {
    for (const s of PLAIN)
      for (const f of FILTER_FORMS(s.name))
        out.push({ what: `filter ${f}`, target: `${pathWith(r, {})}?filter=${inUrl(f, "as is")}`, expect: REFUSED_FILTER });
    for (const s of SPELLINGS)
      out.push({
        what: `filter in ${s.url}`,
        target: `${pathWith(r, {})}?filter=${inUrl(s.name, s.url)}${pct(".x pr")}`,
        expect: REFUSED_FILTER,
      });
    // A name as a value is data: compared, never walked.
    for (const s of SPELLINGS)
      out.push({
        what: `a name as a filter value ${s.name}`,
        target: `${pathWith(r, {})}?filter=${pct('displayName eq "')}${inUrl(s.name, s.url)}${pct('"')}`,
        expect: { status: 200 },
      });
  }
  if (list || one) {
    for (const key of ["attributes", "excludedAttributes"]) {
      for (const s of PLAIN)
        for (const f of PATH_FORMS(s.name))
          out.push({ what: `${key}=${f}`, target: `${pathWith(r, {})}?${key}=${inUrl(f, "as is")}`, expect: REFUSED_PATH });
      for (const s of SPELLINGS)
        out.push({
          what: `${key} in ${s.url}`,
          target: `${pathWith(r, {})}?${key}=${pct("userName,")}${inUrl(s.name, s.url)}`,
          expect: REFUSED_PATH,
        });
    }
  }
  if (r.method === "PATCH") {
    const patch = (s: Spelling, op: unknown) => jsonText({ schemas: [URN.patch], Operations: [op] }, s.json);
    for (const s of PLAIN) {
      for (const f of PATH_FORMS(s.name)) {
        for (const op of ["add", "Replace", "remove"]) {
          out.push({ what: `${op} path ${f}`, target: pathWith(r, {}), body: patch(s, { op, path: f, value: "x" }), expect: REFUSED_PATH });
        }
        // Without a path, the value's keys are paths (RFC 7644 §3.5.2.1).
        out.push({
          what: `add value key ${f}`,
          target: pathWith(r, {}),
          body: patch(s, { op: "add", value: own([[f, "x"]]) }),
          expect: REFUSED_PATH,
        });
        out.push({
          what: `replace name with value key ${f}`,
          target: pathWith(r, {}),
          body: patch(s, { op: "replace", path: "name", value: own([[f, PAYLOAD]]) }),
          expect: REFUSED_PATH,
        });
      }
    }
    for (const s of SPELLINGS) {
      out.push({
        what: `path in ${s.json}`,
        target: pathWith(r, {}),
        body: patch(s, { op: "add", path: `${s.name}.x`, value: "x" }),
        expect: REFUSED_PATH,
      });
      // Deeper in a value, a key is data.
      out.push({
        what: `a key deep in a value, in ${s.json}`,
        target: pathWith(r, {}),
        body: patch(s, { op: "add", path: "title", value: own([["deep", own([[s.name, PAYLOAD]])]]) }),
        expect: { status: 200 },
      });
    }
  }
  return out;
}

/** Every input of the route: each position, each name in each case and encoding. */
function inputsFor(r: Route): Input[] {
  const out: Input[] = [];
  const params = paramsOf(r);
  for (const p of params) {
    for (const s of SPELLINGS) out.push({ what: `{${p}} = ${s.name} (${s.url})`, target: pathWith(r, { [p]: inUrl(s.name, s.url) }) });
    for (const s of PLAIN)
      out.push({ what: `{${p}} = ${s.name}.polluted`, target: pathWith(r, { [p]: inUrl(`${s.name}.polluted`, "as is") }) });
  }
  // The query: every name in one case and encoding per request.
  for (const [i, c] of CASES.entries()) {
    for (const enc of URL_ENCODINGS) {
      const spellings = NAMES.map((n) => ({ name: c(n), url: enc, json: "as is" as const }));
      const scimList = r.auth === "scim" && r.method === "GET";
      const target = `${pathWith(r, {})}?${queryWith(spellings)}`;
      // On a SCIM read, `filter` and `attributes` name them: refused; elsewhere the query's keys are data.
      out.push({
        what: `query, case ${i}, ${enc}`,
        target,
        ...(scimList && /\/(Users|Groups)(\/\{id\}|\/\{proxy\+\})?$/.test(r.path) && { expect: { status: 400 } }),
      });
    }
  }
  // The body: the names as keys at every level of a valid body, in one case and JSON encoding per request.
  if (r.method !== "GET") {
    for (const [i, c] of CASES.entries()) {
      for (const enc of JSON_ENCODINGS) {
        const names = NAMES.map(c);
        out.push({ what: `body keys, case ${i}, ${enc}`, target: pathWith(r, {}), body: jsonText(infest(baseBody(r), names), enc) });
      }
    }
  }
  if (r.handler === "scim/connection" && r.method === "PATCH") {
    for (const s of SPELLINGS) {
      out.push({
        what: `role mapping ${s.name} (${s.json})`,
        target: pathWith(r, {}),
        body: jsonText(
          {
            role_mappings: own([
              [s.name, "cohort_admin"],
              [`${s.name}.x`, "cohort_super_admin"],
            ]),
          },
          s.json,
        ),
        expect: { status: 200 },
      });
    }
  }
  if (r.auth === "scim") out.push(...scimInputs(r));
  return out;
}

/** Random inputs besides: a mixed-case name in a random encoding, in one of the route's positions. */
function randomInput(r: Route): fc.Arbitrary<Input> {
  const params = paramsOf(r);
  return fc.tuple(spelling, fc.nat(params.length + 1)).map(([s, at]): Input => {
    const p = params[at];
    if (p !== undefined) return { what: `{${p}} = ${s.name} (${s.url})`, target: pathWith(r, { [p]: inUrl(s.name, s.url) }) };
    if (at === params.length || r.method === "GET")
      return { what: `query ${s.name} (${s.url})`, target: `${pathWith(r, {})}?${queryWith([s])}` };
    return { what: `body ${s.name} (${s.json})`, target: pathWith(r, {}), body: jsonText(infest(baseBody(r), [s.name]), s.json) };
  });
}

async function sendInput(r: Route, input: Input): Promise<RawResult> {
  const tok = r.auth === "scim" ? directory : r.public ? undefined : owner;
  return hit(label(r), r.method, input.target, {
    ...(tok && { token: tok }),
    ...(input.body !== undefined && {
      raw: input.body,
      headers: { "content-type": r.auth === "scim" ? "application/scim+json" : "application/json" },
    }),
  });
}

async function check(r: Route, input: Input): Promise<void> {
  const res = await sendInput(r, input);
  if (targetTooLong(res)) return;
  const what = `${label(r)}, ${input.what}: ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, what).toBeLessThan(500);
  expect(await bystanderView(), `after ${what}`).toEqual(before);
  if (input.expect) {
    expect(res.status, what).toBe(input.expect.status);
    if (input.expect.scimType) expect(res.body.scimType, what).toBe(input.expect.scimType);
  }
}

describe("every route, every position, every spelling", () => {
  for (const r of routes) {
    it(`${label(r)}: never a 5xx, and an unrelated tenant sees what it saw before`, { timeout: 600_000 }, async () => {
      const examples = inputsFor(r);
      await fc.assert(
        fc.asyncProperty(randomInput(r), (input) => check(r, input)),
        { ...runs(examples.length + 4), examples: examples.map((e) => [e] as [Input]), interruptAfterTimeLimit: 540_000 },
      );
    });
  }
});

describe("what stays data", () => {
  it("a directory's attributes keep the names as keys, and its PATCH keeps them deeper in a value", async () => {
    const userName = uniqEmail("proto-data");
    const body = jsonText(
      own([
        ["schemas", [URN.user]],
        ["userName", userName],
        ["__proto__", { polluted: "yes" }],
        ["constructor", { name: "Set" }],
        ["Prototype", "kept"],
        [
          "name",
          own([
            ["givenName", "Ada"],
            ["constructor", "kept"],
            ["__proto__", "kept"],
          ]),
        ],
      ]),
      "u005f",
    );
    const created = await call("POST", `${SCIM}/Users`, {
      token: directory,
      rawBody: body,
      headers: { "content-type": "application/scim+json" },
    });
    expect(created.status, created.text).toBe(201);
    const read = await scim(directory, "GET", `/Users/${created.body.id}`);
    expect(read.status, read.text).toBe(200);
    const text = read.text;
    for (const kept of [
      '"__proto__":{"polluted":"yes"}',
      '"constructor":{"name":"Set"}',
      '"Prototype":"kept"',
      '"constructor":"kept"',
      '"__proto__":"kept"',
    ])
      expect(text).toContain(kept);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await bystanderView()).toEqual(before);
  });

  it("a group may be called Constructor or __proto__: role mappings are plain keys, and the mapped role is given", async () => {
    const mappings = own([
      ["Constructor", "cohort_super_admin"],
      ["__proto__", "cohort_admin"],
      // Group names match without regard to case: `constructor` would be `Constructor`'s mapping again.
      ["constructor.prototype", "cohort_admin"],
      ["prototype", "cohort_admin"],
    ]);
    const set = await call("PATCH", connectionPath(institutionId), {
      token: owner,
      rawBody: jsonText({ role_mappings: mappings }, "as is"),
      headers: { "content-type": "application/json" },
    });
    expect(set.status, set.text).toBe(200);
    expect(JSON.parse(set.text).scim.role_mappings).toEqual(JSON.parse(jsonText(mappings, "as is")));
    const shown = await call("GET", connectionPath(institutionId), { token: owner });
    expect(Object.keys(JSON.parse(shown.text).scim.role_mappings).sort()).toEqual([
      "Constructor",
      "__proto__",
      "constructor.prototype",
      "prototype",
    ]);

    const email = uniqEmail("proto-mapped");
    const user = await scim(directory, "POST", "/Users", entraUser(email));
    expect(user.status, user.text).toBe(201);
    const group = await scim(directory, "POST", "/Groups", { displayName: "Constructor", members: [{ value: user.body.id }] });
    expect(group.status, group.text).toBe(201);
    const admins = await call("GET", `${INST}/${institutionId}/administrators`, { token: owner });
    expect(admins.status, admins.text).toBe(200);
    const mapped = (admins.body.administrators as { email: string; role: string }[]).find((a) => a.email === email);
    expect(mapped?.role).toBe("cohort_super_admin");
    expect(await bystanderView()).toEqual(before);
  });
});
