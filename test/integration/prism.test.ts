/**
 * Prism (`prism proxy --errors`, @stoplight/prism-cli) checks the API document against the running local API:
 * a walk through every route of `shared/routes.ts` goes through Prism, which validates each request and
 * each response (status, headers, content type, body) against the document the gateway serves. Success
 * answers and the main error answers (400, 401, 403, 404, 409, 412, 422, 429) of every resource; then Prism
 * must have reported nothing, and the routes walked must be the route table. A copy of the document with one
 * response field's type changed shows that the same check does fail.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { payloadOf, persistence } from "../../shared/idempotency.js";
import { idempotencyTable } from "../../shared/idempotency-table.js";
import { type HttpMethod, paths, routeKey, routes } from "../../shared/routes.js";
import { streamKeys } from "../../shared/tables.js";
import { type CallOptions, type CallResult, call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { assertConforms } from "../support/contract.js";
import { EXPORTS } from "../support/exports.js";
import {
  ACCEPT,
  ALERTS,
  ageLastMail,
  createInstitution,
  DOCS,
  EVENTS,
  EXPORT,
  INST,
  INV,
  invite,
  lastMailedToken,
  OPENAPI,
  withinOneWindow,
} from "../support/flows.js";
import { type PrismProxy, startPrism } from "../support/prism.js";
import { challengeOf, type IdpServer, idpServer, publishTxt, samlMetadata } from "../support/sso.js";
import { receiver, until } from "../support/webhook-receiver.js";
import { eventsOf, grantAccess, userIdOf } from "./helpers.js";

/** For steps that wait on the export worker, the stream consumer or mail, on a shared machine. */
const SLOW = 180_000;
const PREVIEW = paths.invitationsPreview;
const OPEN = paths.invitationsOpen;
const REGISTER = paths.invitationsRegister;
const DIGESTS = `${EVENTS}/digests`;
const HOOKS = paths.webhooks;
const ME = paths.me;
/** Well-formed ids that name nothing. */
const NO_SUCH_ID = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
/** A bearer token the gateway's authorizer refuses (Prism only checks that a bearer token is sent). */
const BAD_TOKEN = "not-a-valid-token";
/** Shaped as an invitation token (43 base64url characters), but issued by nobody. */
const UNKNOWN_INVITATION_TOKEN = randomBytes(32).toString("base64url");

/** The route of the table a request meets, as API Gateway picks it: a literal segment wins over `{param}`. */
function routeOf(method: string, pathname: string): string | undefined {
  const parts = pathname.split("/").slice(1);
  const candidates = routes
    .filter((r) => r.method === method)
    .map((r) => ({ key: routeKey(r), segments: r.path.split("/").slice(1) }))
    .filter(
      (r) => r.segments.length === parts.length && r.segments.every((s, i) => (s.startsWith("{") ? parts[i] !== "" : s === parts[i])),
    );
  const literals = (segments: string[]) => segments.map((s) => (s.startsWith("{") ? "1" : "0")).join("");
  candidates.sort((a, b) => literals(a.segments).localeCompare(literals(b.segments)));
  return candidates[0]?.key;
}

describe("Prism, a validating proxy, between a client and the local API", () => {
  let prism: PrismProxy;
  /** Prism on a copy of the document with one response field's type changed. */
  let broken: PrismProxy;
  let hook: Awaited<ReturnType<typeof receiver>>;
  /** Statuses answered through Prism, by route key. */
  const walked = new Map<string, Set<number>>();
  /** Answers through Prism that carried a violation (header `sl-violations`) or were Prism's own problem answer. */
  const flagged: string[] = [];
  /** Requests sent through Prism. */
  let sent = 0;
  /** Per route key, a request it answered with a success: sent again with a bad token for its 401. */
  const succeeded = new Map<string, { method: HttpMethod; path: string; opts: CallOptions }>();

  const account = uniq("acct");
  const domain = `${uniq("d")}.test`;
  let owner: string;
  /** Same account, no cohort super admin status. */
  let plain: string;
  /** A cohort super admin of another account: sees none of this account's data. */
  let stranger: string;

  beforeAll(async () => {
    const tag = `${process.pid}-${Date.now()}`;
    const served = await fetch(`${stack.apiUrl}${OPENAPI}`);
    // biome-ignore lint/suspicious/noExplicitAny: the served document, edited at two known places.
    const document: any = await served.json();
    // One response field's type changed: an institution's name becomes an integer.
    const copy = structuredClone(document);
    copy.components.schemas.Institution.properties.name = { type: "integer" };
    // And a header the API never sends, required on an institution's 200.
    copy.paths[`${INST}/{id}`].get.responses["200"].headers["X-Never-Sent"] = { required: true, schema: { type: "string" } };
    const brokenFile = `${stack.logDir}/prism-broken-document-${tag}.json`;
    writeFileSync(brokenFile, JSON.stringify(copy));
    // The document as the gateway served it, from a file: Prism's own fetch of a URL fails on Node 24 (its
    // resolver hands node-fetch an AbortSignal of another realm).
    const servedFile = `${stack.logDir}/prism-document-${tag}.json`;
    writeFileSync(servedFile, JSON.stringify(document));
    [prism, broken, hook, owner, plain, stranger] = await Promise.all([
      startPrism(servedFile, stack.apiUrl, `${stack.logDir}/prism-${tag}.log`),
      startPrism(brokenFile, stack.apiUrl, `${stack.logDir}/prism-broken-${tag}.log`),
      receiver(0),
      token(uniqEmail("pr-owner", domain), { superAdmin: true, account }),
      token(uniqEmail("pr-plain", domain), { account }),
      token(uniqEmail("pr-stranger"), { superAdmin: true, account: uniq("acct") }),
    ]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([prism?.stop(), broken?.stop(), hook?.close()]);
  });

  /** One request through Prism; its answer is also checked against the document by the tests' own check. */
  async function p(method: HttpMethod, path: string, opts: CallOptions = {}): Promise<CallResult> {
    sent++;
    const res = await call(method, path, { ...opts, baseUrl: prism.url, contract: false });
    const url = new URL(path, prism.url);
    const key = routeOf(method, url.pathname) ?? `${method} ${url.pathname} (no route)`;
    walked.set(key, new Set(walked.get(key)).add(res.status));
    const violations = res.headers["sl-violations"];
    const problem = (res.headers["content-type"] ?? "").startsWith("application/problem+json");
    if (violations !== undefined || problem) {
      const report = `${key} → ${res.status}: ${violations ?? ""} ${problem ? res.text : ""}`;
      flagged.push(report);
      throw new Error(`Prism found a violation: ${report}`);
    }
    assertConforms(method, url.pathname, res);
    if (res.status < 300) succeeded.set(key, { method, path, opts });
    return res;
  }

  /** Status and body, for one comparison. */
  const answer = (res: CallResult) => ({ status: res.status, body: res.body });
  const error = (status: number, message: string) => ({ status, body: { error: message } });

  // State the walk builds as it goes.
  let inst: { id: string; name: string };
  let etag: string;
  /** An administrator of `inst` with the role cohort_admin (joined through an invitation). */
  let ada: { token: string; id: string; email: string };
  /** An administrator of `inst` with the role cohort_super_admin, of the same account. */
  let bob: { token: string; id: string; email: string };

  it("institutions: list, create, show, update (PATCH, PUT), delete; 401, 403, 404, 412, 422, Idempotency-Key replays and 422", async () => {
    expect((await p("GET", INST, { token: owner })).status).toBe(200);
    const key = uniq("key");
    const name = uniq("Prism College");
    const body = { institution: { name, registration_number: uniq("REG"), contact_email: "desk@prism.test" } };
    const created = await p("POST", INST, { token: owner, body, headers: { "Idempotency-Key": key } });
    expect(created.status).toBe(201);
    inst = created.body.institution;
    // The replay answers the first response; the key with another body is 422.
    expect(answer(await p("POST", INST, { token: owner, body, headers: { "Idempotency-Key": key } }))).toEqual(answer(created));
    const reused = await p("POST", INST, { token: owner, body: { institution: { name: "Other" } }, headers: { "Idempotency-Key": key } });
    expect(reused.status).toBe(422);
    // The registration number is taken: 422 {errors}.
    const taken = await p("POST", INST, { token: owner, body: { institution: { ...body.institution, name: uniq("Twin") } } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual(["Registration number has already been taken"]);
    expect((await p("POST", INST, { token: plain, body: { institution: { name: "No" } } })).status).toBe(403);

    const shown = await p("GET", `${INST}/${inst.id}`, { token: owner });
    expect(shown.status).toBe(200);
    etag = shown.headers.etag ?? "";
    expect(etag).not.toBe("");
    expect((await p("GET", `${INST}/${inst.id}`, { token: stranger })).status).toBe(404);

    const patched = await p("PATCH", `${INST}/${inst.id}`, {
      token: owner,
      body: { institution: { address: "1 Proxy Way" } },
      headers: { "If-Match": etag },
    });
    expect(patched.status).toBe(200);
    // The version read before the PATCH is stale now.
    const stale = await p("PUT", `${INST}/${inst.id}`, {
      token: owner,
      body: { institution: { address: "2" } },
      headers: { "If-Match": etag },
    });
    expect(stale.status).toBe(412);
    etag = patched.headers.etag ?? "";
    const put = await p("PUT", `${INST}/${inst.id}`, {
      token: owner,
      body: { institution: { contact_phone: "+1 555 0100" } },
      headers: { "If-Match": etag },
    });
    expect(put.status).toBe(200);
    // What docs/contract/README.md lets a client send: null or "" clears a field, `If-Match: *`, unknown keys are ignored.
    const cleared = await p("PATCH", `${INST}/${inst.id}`, {
      token: owner,
      body: { institution: { address: null, contact_email: "", motto: "ignored", settings: { dark_mode: true } }, extra: 1 },
      headers: { "If-Match": "*" },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.institution).toMatchObject({ address: null, contact_email: null });
    expect((await p("PATCH", `${INST}/${inst.id}`, { token: stranger, body: { institution: { address: "x" } } })).status).toBe(404);
    expect((await p("DELETE", `${INST}/${inst.id}`, { token: owner, headers: { "If-Match": '"0"' } })).status).toBe(412);

    // A body over 64 KiB, well-formed (an unknown key carries the bulk): 413.
    const huge = await p("POST", INST, { token: owner, body: { institution: { name: "Big", filler: "a".repeat(70_000) } } });
    expect(answer(huge)).toEqual(error(413, "Request body too large"));

    const doomed = await createInstitution(owner);
    expect((await p("DELETE", `${INST}/${doomed.id}`, { token: stranger })).status).toBe(404);
    expect((await p("DELETE", `${INST}/${doomed.id}`, { token: owner })).status).toBe(200);
  });

  it("cohorts: create, list; 403, 404; and an institution with cohorts cannot be deleted (422)", async () => {
    const created = await p("POST", `${INST}/${inst.id}/cohorts`, { token: owner, body: { cohort: { name: "2026" } } });
    expect(created.status).toBe(201);
    expect((await p("GET", `${INST}/${inst.id}/cohorts`, { token: owner })).body.cohorts).toHaveLength(1);
    expect((await p("GET", `${INST}/${inst.id}/cohorts`, { token: stranger })).status).toBe(404);
    expect((await p("POST", `${INST}/${inst.id}/cohorts`, { token: stranger, body: { cohort: { name: "x" } } })).status).toBe(404);
    const refused = await p("DELETE", `${INST}/${inst.id}`, { token: owner });
    expect(answer(refused)).toEqual(error(422, "Cannot delete institution with existing cohorts"));
  });

  it(
    "invitations: create, list, preview, accept, resend, revoke; 400, 403, 404, 409 (key in progress), 422",
    async () => {
      const adaEmail = uniqEmail("pr-ada", domain);
      const bobEmail = uniqEmail("pr-bob", domain);
      const [adaToken, bobToken] = await Promise.all([token(adaEmail, { account }), token(bobEmail, { account, superAdmin: true })]);
      ada = { token: adaToken, id: await userIdOf(adaToken), email: adaEmail };
      bob = { token: bobToken, id: await userIdOf(bobToken), email: bobEmail };

      const invited = await p("POST", INV, { token: owner, body: { institution_id: inst.id, email: ada.email, role: "cohort_admin" } });
      expect(invited.status).toBe(201);
      const bobInvited = await p("POST", INV, {
        token: owner,
        body: { institution_id: inst.id, email: bob.email, role: "cohort_super_admin" },
        headers: { "Idempotency-Key": uniq("key") },
      });
      expect(bobInvited.status).toBe(201);
      const listed = await p("GET", INV, { token: owner, query: { institution_id: inst.id, limit: 1 } });
      expect(listed.status).toBe(200);
      expect(listed.body.meta.next_cursor).toEqual(expect.any(String));
      const next = await p("GET", INV, {
        token: owner,
        query: { institution_id: inst.id, limit: 1, cursor: listed.body.meta.next_cursor },
      });
      expect(next.status).toBe(200);
      expect((await p("GET", INV, { token: owner, query: { institution_id: inst.id, cursor: "not-a-cursor" } })).status).toBe(400);
      expect((await p("GET", INV, { token: owner, query: { institution_id: inst.id, show_used: "true" } })).status).toBe(200);
      expect((await p("GET", INV, { token: stranger, query: { institution_id: inst.id } })).status).toBe(404);

      // A request with this key is still running (its record written as the first invocation would): 409.
      const running = uniq("key");
      const runningBody = { institution_id: inst.id, email: uniqEmail("pr-running", domain), role: "cohort_admin" };
      await persistence(idempotencyTable).saveInProgress(
        payloadOf(await userIdOf(owner), `POST ${INV}`, running, { params: {}, query: {}, body: runningBody }),
        60_000,
      );
      const inProgress = await p("POST", INV, { token: owner, body: runningBody, headers: { "Idempotency-Key": running } });
      expect(answer(inProgress)).toEqual(error(409, "A request with this Idempotency-Key is in progress"));

      const adaToken_ = await lastMailedToken(ada.email);
      const preview = await p("POST", PREVIEW, { token: ada.token, body: { token: adaToken_ } });
      expect(preview.status).toBe(200);
      expect((await p("POST", PREVIEW, { token: ada.token, body: { token: UNKNOWN_INVITATION_TOKEN } })).status).toBe(422);
      expect((await p("POST", ACCEPT, { token: ada.token, body: { token: UNKNOWN_INVITATION_TOKEN } })).status).toBe(422);
      expect((await p("POST", ACCEPT, { token: ada.token, body: { token: adaToken_ } })).status).toBe(200);
      expect((await p("POST", ACCEPT, { token: bob.token, body: { token: await lastMailedToken(bob.email) } })).status).toBe(200);
      // Ada is an administrator now: inviting her again is 422 {errors}.
      const again = await p("POST", INV, { token: owner, body: { institution_id: inst.id, email: ada.email, role: "cohort_admin" } });
      expect(again.status).toBe(422);

      // Resend once the cooldown is over; revoke; a revoked invitation can be neither revoked nor resent.
      const carol = await p("POST", INV, {
        token: owner,
        body: { institution_id: inst.id, email: uniqEmail("pr-carol", domain), role: "cohort_admin" },
      });
      const carolId = carol.body.invitation.id as string;
      await ageLastMail(inst.id, carolId, 3_600);
      const resent = await p("POST", `${INV}/${carolId}/resend`, { token: owner, query: { institution_id: inst.id } });
      expect(resent.status).toBe(200);
      expect((await p("POST", `${INV}/${carolId}/resend`, { token: ada.token, query: { institution_id: inst.id } })).status).toBe(403);
      expect((await p("POST", `${INV}/${carolId}/resend`, { token: stranger, query: { institution_id: inst.id } })).status).toBe(404);
      expect((await p("DELETE", `${INV}/${carolId}`, { token: ada.token, query: { institution_id: inst.id } })).status).toBe(403);
      expect((await p("DELETE", `${INV}/${NO_SUCH_ID}`, { token: owner, query: { institution_id: inst.id } })).status).toBe(404);
      // `institution_id` in the JSON body instead of the query (the spec: "query or body").
      await ageLastMail(inst.id, carolId, 3_600);
      const resentByBody = await p("POST", `${INV}/${carolId}/resend`, { token: owner, body: { institution_id: inst.id } });
      expect(resentByBody.status).toBe(200);
      expect((await p("DELETE", `${INV}/${carolId}`, { token: owner, body: { institution_id: inst.id } })).status).toBe(200);
      expect((await p("DELETE", `${INV}/${carolId}`, { token: owner, query: { institution_id: inst.id } })).status).toBe(422);
      expect((await p("POST", `${INV}/${carolId}/resend`, { token: owner, query: { institution_id: inst.id } })).status).toBe(422);
      // At most 3 active invitations per e-mail and institution: the 4th is 429 with Retry-After.
      const pending = uniqEmail("pr-pending", domain);
      for (let i = 0; i < 3; i++) await invite(owner, inst.id, pending);
      const fourth = await p("POST", INV, { token: owner, body: { institution_id: inst.id, email: pending, role: "cohort_admin" } });
      expect(answer(fourth)).toEqual(error(429, "Too many pending invitations for this email"));
      expect(Number(fourth.headers["retry-after"])).toBeGreaterThanOrEqual(1);

      // The e-mail is trimmed and lower-cased (docs/contract/README.md): a client may send it with spaces and capitals.
      const dan = uniqEmail("pr-dan", domain);
      const spaced = await p("POST", INV, {
        token: owner,
        body: { institution_id: inst.id, email: `  ${dan.toUpperCase()} `, role: "cohort_admin" },
      });
      expect(spaced.status).toBe(201);
      expect(spaced.body.invitation.email).toBe(dan);
      const forbidden = await p("POST", INV, {
        token: ada.token,
        body: { institution_id: inst.id, email: uniqEmail("pr-dan", domain), role: "cohort_admin" },
      });
      expect(forbidden.status).toBe(403);
      const unseen = await p("POST", INV, {
        token: stranger,
        body: { institution_id: inst.id, email: uniqEmail("pr-eve", domain), role: "cohort_admin" },
      });
      expect(unseen.status).toBe(404);
    },
    SLOW,
  );

  it(
    "joining without a token: open, register; 409 (account exists, already accepted), 422 (token, password); cohort delete; 404",
    async () => {
      const nia = uniqEmail("pr-nia", domain);
      expect((await p("POST", INV, { token: owner, body: { institution_id: inst.id, email: nia, role: "cohort_admin" } })).status).toBe(
        201,
      );
      const niaToken = await lastMailedToken(nia);
      const opened = await p("POST", OPEN, { body: { token: niaToken } });
      expect(opened.status).toBe(200);
      expect(opened.body).toMatchObject({ email: nia, has_account: false });
      expect(answer(await p("POST", OPEN, { body: { token: UNKNOWN_INVITATION_TOKEN } }))).toEqual(
        error(422, "Invalid or expired invitation"),
      );
      const weak = await p("POST", REGISTER, { body: { token: niaToken, name: "Nia New", password: "weak-but-long-enough" } });
      expect(weak.status).toBe(422);
      expect(weak.body.errors).toContain("Password must contain a digit");
      const joined = await p("POST", REGISTER, { body: { token: niaToken, name: "Nia New", password: "Correct-Horse-9-battery" } });
      expect(joined.status).toBe(201);
      const again = await p("POST", OPEN, { body: { token: niaToken } });
      expect(answer(again)).toEqual({ status: 409, body: { error: "Invitation already accepted", institution: { name: inst.name } } });
      // A person with an account already: sign in and accept instead.
      const oscar = uniqEmail("pr-oscar", domain);
      await token(oscar, { account });
      expect((await p("POST", INV, { token: owner, body: { institution_id: inst.id, email: oscar, role: "cohort_admin" } })).status).toBe(
        201,
      );
      const exists = await p("POST", REGISTER, {
        body: { token: await lastMailedToken(oscar), name: "Oscar", password: "Correct-Horse-9-battery" },
      });
      expect(answer(exists)).toEqual(error(409, "An account with this e-mail already exists; sign in to accept the invitation"));

      const cohort = await p("POST", `${INST}/${inst.id}/cohorts`, { token: owner, body: { cohort: { name: "Short-lived" } } });
      expect(cohort.status).toBe(201);
      const path = `${INST}/${inst.id}/cohorts/${cohort.body.cohort.id}`;
      expect(answer(await p("DELETE", `${INST}/${inst.id}/cohorts/${NO_SUCH_ID}`, { token: owner }))).toEqual(
        error(404, "Cohort not found"),
      );
      expect((await p("DELETE", path, { token: stranger })).status).toBe(404);
      expect(answer(await p("DELETE", path, { token: owner }))).toEqual({ status: 200, body: { message: "Cohort 'Short-lived' deleted" } });
    },
    SLOW,
  );

  it("administrators: list, change a role, remove, leave, transfer; 400, 403, 404, 422", async () => {
    const admins = `${INST}/${inst.id}/administrators`;
    const page = await p("GET", admins, { token: owner, query: { limit: 2 } });
    expect(page.status).toBe(200);
    expect(page.body.administrators).toHaveLength(2);
    expect((await p("GET", admins, { token: ada.token, query: { cursor: page.body.meta.next_cursor } })).status).toBe(200);
    expect((await p("GET", admins, { token: owner, query: { cursor: "not-a-cursor" } })).status).toBe(400);
    expect((await p("GET", admins, { token: stranger })).status).toBe(404);

    // A member who is not the super admin is refused the institution's writes.
    expect((await p("PATCH", `${INST}/${inst.id}`, { token: ada.token, body: { institution: { address: "x" } } })).status).toBe(403);
    expect((await p("PUT", `${INST}/${inst.id}`, { token: ada.token, body: { institution: { address: "x" } } })).status).toBe(403);
    expect((await p("DELETE", `${INST}/${inst.id}`, { token: ada.token })).status).toBe(403);
    expect((await p("POST", `${INST}/${inst.id}/cohorts`, { token: ada.token, body: { cohort: { name: "x" } } })).status).toBe(403);
    expect((await p("PATCH", `${admins}/${bob.id}`, { token: ada.token, body: { role: "cohort_admin" } })).status).toBe(403);
    expect((await p("DELETE", `${admins}/${bob.id}`, { token: ada.token })).status).toBe(403);
    expect((await p("POST", `${INST}/${inst.id}/transfer`, { token: ada.token, body: { user_id: bob.id } })).status).toBe(403);

    const promoted = await p("PATCH", `${admins}/${ada.id}`, { token: owner, body: { role: "cohort_super_admin" } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.administrator.role).toBe("cohort_super_admin");
    expect((await p("PATCH", `${admins}/${await userIdOf(owner)}`, { token: owner, body: { role: "cohort_admin" } })).status).toBe(422);
    expect((await p("PATCH", `${admins}/${NO_SUCH_ID}`, { token: owner, body: { role: "cohort_admin" } })).status).toBe(404);
    expect((await p("PATCH", `${admins}/${ada.id}`, { token: stranger, body: { role: "cohort_admin" } })).status).toBe(404);
    expect((await p("DELETE", `${admins}/${await userIdOf(owner)}`, { token: owner })).status).toBe(422);
    expect((await p("DELETE", `${admins}/${NO_SUCH_ID}`, { token: owner })).status).toBe(404);
    expect((await p("POST", `${INST}/${inst.id}/transfer`, { token: owner, body: { user_id: await userIdOf(owner) } })).status).toBe(422);
    expect((await p("POST", `${INST}/${inst.id}/transfer`, { token: owner, body: { user_id: NO_SUCH_ID } })).status).toBe(404);
    expect((await p("POST", `${INST}/${inst.id}/transfer`, { token: stranger, body: { user_id: bob.id } })).status).toBe(404);

    // Ada leaves; the owner hands the institution to Bob, who then removes the former owner.
    expect((await p("DELETE", `${admins}/${ada.id}`, { token: ada.token })).status).toBe(200);
    const transferred = await p("POST", `${INST}/${inst.id}/transfer`, {
      token: owner,
      body: { user_id: bob.id },
      headers: { "Idempotency-Key": uniq("key") },
    });
    expect(transferred.status).toBe(200);
    const removed = await p("DELETE", `${admins}/${await userIdOf(owner)}`, { token: bob.token });
    expect(removed.status).toBe(200);
  });

  let eventId: string;
  it("security events: list, show, export CSV, alerts, digests; 400, 403, 404", async () => {
    const list = await p("GET", EVENTS, { token: owner, query: { limit: 5 } });
    expect(list.status).toBe(200);
    eventId = list.body.events[0].id;
    const next = await p("GET", EVENTS, { token: owner, query: { limit: 5, cursor: list.body.meta.next_cursor } });
    expect(next.status).toBe(200);
    const filtered = await p("GET", EVENTS, {
      token: owner,
      query: { event_type: "institution_created", user_id: await userIdOf(owner), from: "2024-01-01", to: new Date().toISOString() },
    });
    expect(filtered.body.events.length).toBeGreaterThanOrEqual(1);
    expect((await p("GET", EVENTS, { token: owner, query: { cursor: "not-a-cursor" } })).status).toBe(400);
    expect((await p("GET", EVENTS, { token: plain })).status).toBe(403);

    expect((await p("GET", `${EVENTS}/${eventId}`, { token: owner })).status).toBe(200);
    expect((await p("GET", `${EVENTS}/${NO_SUCH_ID}`, { token: owner })).status).toBe(404);
    expect((await p("GET", `${EVENTS}/${eventId}`, { token: plain })).status).toBe(403);

    const csv = await p("GET", EXPORT, { token: owner, query: { event_type: "institution_created,cohort_created" } });
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    expect(csv.text.split("\r\n")[0]).toBe("id,event_type,created_at,user_id,user_email,ip_address,description,details");
    expect((await p("GET", EXPORT, { token: plain })).status).toBe(403);

    expect((await p("GET", ALERTS, { token: owner })).status).toBe(200);
    expect((await p("GET", ALERTS, { token: plain })).status).toBe(403);
    expect((await p("GET", DIGESTS, { token: owner, query: { from: "2024-01-01T00:00:00Z" } })).status).toBe(200);
    expect((await p("GET", DIGESTS, { token: plain })).status).toBe(403);
  });

  it(
    "full exports: start, status until done with its link; 400, 403, 404, 429",
    async () => {
      // Absent, null or blank filters are no filter, as in the list's query string.
      const started = await p("POST", EXPORTS, {
        token: owner,
        body: { format: "jsonl", event_type: "institution_created", user_id: "", from: "2024-06-01", to: null },
      });
      expect(started.status).toBe(202);
      const id = started.body.export.id as string;
      const done = await until(
        "the export",
        async () => {
          const res = await p("GET", `${EXPORTS}/${id}`, { token: owner });
          expect(res.status).toBe(200);
          return res.body.export.status === "running" ? undefined : res.body.export;
        },
        150_000,
      );
      expect(done).toMatchObject({ status: "succeeded", download_url: expect.any(String) });
      expect((await p("GET", `${EXPORTS}/${id}`, { token: stranger })).status).toBe(404);
      expect((await p("GET", `${EXPORTS}/${id}`, { token: plain })).status).toBe(403);
      const range = await p("POST", EXPORTS, { token: owner, body: { format: "csv", from: "2024-06-02", to: "2024-06-01" } });
      expect(range.status).toBe(400);
      expect((await p("POST", EXPORTS, { token: plain, body: { format: "csv" } })).status).toBe(403);

      // Both of an account's export slots held by running exports: 429 with Retry-After.
      const busy = uniq("acct");
      const busyAdmin = await token(uniqEmail("pr-busy"), { superAdmin: true, account: busy });
      const lease = Date.now() + 10 * 60_000;
      await Promise.all(
        [0, 1].map((n) =>
          db.send(
            new PutCommand({
              TableName: config.tables.main,
              Item: { ...streamKeys.exportSlot(busy, n), export_id: `held-${n}`, lease_until: lease },
            }),
          ),
        ),
      );
      const bounded = await p("POST", EXPORTS, { token: busyAdmin, body: { format: "csv" } });
      expect(answer(bounded)).toEqual(error(429, "Too many exports running, try again later"));
      expect(Number(bounded.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    },
    SLOW,
  );

  it(
    "webhooks: create (loopback http locally), list, deliveries, delete; 403, 404, 422, 429",
    async () => {
      const created = await p("POST", HOOKS, { token: owner, body: { webhook: { url: hook.url } } });
      expect(created.status).toBe(201);
      const id = created.body.webhook.id as string;
      expect((await p("GET", HOOKS, { token: owner })).body.webhooks.map((w: { id: string }) => w.id)).toContain(id);
      // Its own webhook_created event, delivered from the events table's stream by the local consumer.
      const deliveries = await until("the webhook's own event delivered", async () => {
        const listed = await p("GET", `${HOOKS}/${id}/deliveries`, { token: owner });
        expect(listed.status).toBe(200);
        const got: { status: string }[] = listed.body.deliveries;
        return got.some((d) => d.status === "delivered") ? got : undefined;
      });
      expect(deliveries.length).toBeGreaterThanOrEqual(1);

      expect((await p("GET", `${HOOKS}/${id}/deliveries`, { token: stranger })).status).toBe(404);
      expect((await p("GET", HOOKS, { token: plain })).status).toBe(403);
      expect((await p("POST", HOOKS, { token: plain, body: { webhook: { url: hook.url } } })).status).toBe(403);
      expect((await p("GET", `${HOOKS}/${id}/deliveries`, { token: plain })).status).toBe(403);
      expect((await p("DELETE", `${HOOKS}/${id}`, { token: plain })).status).toBe(403);
      expect((await p("DELETE", `${HOOKS}/${id}`, { token: stranger })).status).toBe(404);
      const insecure = await p("POST", HOOKS, { token: owner, body: { webhook: { url: "ftp://siem.example.com/hook" } } });
      expect(insecure.status).toBe(422);
      expect((await p("DELETE", `${HOOKS}/${id}`, { token: owner })).status).toBe(200);
      expect((await p("DELETE", `${HOOKS}/${id}`, { token: owner })).status).toBe(404);

      // At most 5 per account: the sixth is 429. All at the loopback receiver: a host that never answers would
      // hold the stream consumer's batches, other files' deliveries too, for its 5 s timeout.
      const full = await token(uniqEmail("pr-full"), { superAdmin: true, account: uniq("acct") });
      for (let i = 0; i < 5; i++) {
        const res = await call("POST", HOOKS, { token: full, body: { webhook: { url: `${hook.url}?n=${i}` } } });
        expect(res.status).toBe(201);
      }
      const sixth = await p("POST", HOOKS, { token: full, body: { webhook: { url: `${hook.url}?n=5` } } });
      expect(answer(sixth)).toEqual(error(429, "At most 5 webhooks per account"));
    },
    SLOW,
  );

  it(
    "directory connection (SCIM): connect, rotate, show, map groups, disconnect; 400, 403, 404, 422",
    async () => {
      const target = await createInstitution(owner);
      const path = `${paths.institutions}/${target.id}/scim`;
      expect((await p("GET", path, { token: owner })).status).toBe(404);
      expect((await p("POST", path, { token: owner })).status).toBe(201);
      const rotated = await p("POST", path, { token: owner });
      expect(rotated.status).toBe(200);
      expect(rotated.body.scim.token).toMatch(/^scim_/);
      expect((await p("GET", path, { token: owner })).body.scim.token_preview).toMatch(/\.\.\.$/);
      expect((await p("PATCH", path, { token: owner, body: { role_mappings: { Staff: "cohort_super_admin" } } })).status).toBe(200);
      // A role the document's enum refuses: Prism would answer for the API, so straight to it.
      expect((await call("PATCH", path, { token: owner, body: { role_mappings: { Staff: "owner" } } })).status).toBe(400);
      expect((await p("PATCH", path, { token: owner, body: { role_mappings: { "": "cohort_admin" } } })).status).toBe(422);
      expect((await p("GET", path, { token: stranger })).status).toBe(404);
      expect((await p("DELETE", path, { token: owner })).status).toBe(200);
      expect((await p("DELETE", path, { token: owner })).status).toBe(404);
    },
    SLOW,
  );

  it("your account: TOTP off, on before an app is set up (422); sign out everywhere", async () => {
    const person = await token(uniqEmail("pr-me", domain), { account });
    const off = await p("PUT", `${ME}/mfa`, { token: person, body: { mfa: { totp: false } } });
    expect(answer(off)).toEqual({
      status: 200,
      body: { mfa: { totp: false }, message: "Authenticator app turned off: the password alone signs you in" },
    });
    // A valid request the state refuses; a body the document refuses (a totp that is no boolean, no mfa) Prism
    // answers itself, never reaching the API: me-routes.test.ts has those.
    const early = await p("PUT", `${ME}/mfa`, { token: person, body: { mfa: { totp: true } } });
    expect(early.status).toBe(422);
    expect(early.body.error).toMatch(/^Set up the authenticator app first/);
    const out = await p("POST", `${ME}/sign_out_everywhere`, { token: person, headers: { "Idempotency-Key": uniq("key") } });
    expect(answer(out)).toEqual({ status: 200, body: { message: "Signed out everywhere: every session must sign in again" } });
  });

  it(
    "verified domains, the SSO connection and discovery: add, list, verify (found, 409 elsewhere), remove; connect, show, change, disconnect; 400, 403, 404, 409, 422",
    async () => {
      let idp: IdpServer | undefined;
      try {
        idp = await idpServer();
        const entityId = `${idp.url}/prism-idp`;
        idp.serve("/metadata.xml", samlMetadata({ entityId, ssoUrl: `${idp.url}/sso` }));
        const target = await createInstitution(owner);
        const other = await createInstitution(stranger);
        await grantAccess(target.id, ada.id, "cohort_admin");
        const domains = `${paths.institutions}/${target.id}/domains`;
        const name = `${uniq("prism")}.test`;
        const added = await p("POST", domains, { token: owner, body: { domain: name } });
        expect(added.status).toBe(201);
        const domainId = added.body.domain.id as string;
        expect((await p("POST", domains, { token: owner, body: { domain: "co.uk" } })).status).toBe(422);
        expect((await p("POST", domains, { token: ada.token, body: { domain: `${uniq("x")}.test` } })).status).toBe(403);
        expect((await p("GET", domains, { token: ada.token })).body.domains).toHaveLength(1);
        expect((await p("GET", domains, { token: stranger })).status).toBe(404);
        // Not published yet: 200, still pending; then published: verified.
        expect((await p("POST", `${domains}/${domainId}/verify`, { token: owner })).body.domain.state).toBe("pending");
        const theirs = await call("POST", `${paths.institutions}/${other.id}/domains`, { token: stranger, body: { domain: name } });
        await publishTxt(challengeOf(name), [added.body.domain.verification.record_value, theirs.body.domain.verification.record_value]);
        expect((await p("POST", `${domains}/${domainId}/verify`, { token: owner })).body.domain.state).toBe("verified");
        const taken = await p("POST", `${paths.institutions}/${other.id}/domains/${theirs.body.domain.id}/verify`, { token: stranger });
        expect(answer(taken)).toEqual(error(409, "Domain is verified by another institution"));
        expect((await p("POST", `${domains}/${NO_SUCH_ID}/verify`, { token: owner })).status).toBe(404);

        const sso = `${paths.institutions}/${target.id}/sso`;
        expect((await p("GET", sso, { token: owner })).status).toBe(404);
        expect((await p("POST", sso, { token: owner, body: { type: "saml", metadata_xml: "<md:EntityDescriptor" } })).status).toBe(422);
        const connected = await p("POST", sso, { token: owner, body: { type: "saml", metadata_url: `${idp.url}/metadata.xml` } });
        expect(connected.status).toBe(201);
        expect((await p("POST", sso, { token: owner, body: { type: "saml", metadata_url: `${idp.url}/metadata.xml` } })).status).toBe(409);
        expect((await p("GET", sso, { token: owner })).body.sso.idp.entity_id).toBe(entityId);
        expect((await p("GET", sso, { token: ada.token })).status).toBe(403);
        expect(
          (await p("PATCH", sso, { token: owner, body: { require_sso: true, role_mappings: { Staff: "cohort_admin" } } })).status,
        ).toBe(200);
        // A value the document allows (a string) that the API refuses (blank once trimmed): 422 from the API itself.
        expect((await p("PATCH", sso, { token: owner, body: { attribute_mapping: { email: " " } } })).status).toBe(422);

        const discovered = await p("POST", paths.ssoDiscover, { body: { email: `ada@${name}` } });
        expect(discovered.body).toEqual({ sso: { provider_name: connected.body.sso.provider_name, institution: { name: target.name } } });
        expect((await p("POST", paths.ssoDiscover, { body: { email: "ada@elsewhere.test" } })).body).toEqual({ sso: null });

        expect((await p("DELETE", sso, { token: owner })).status).toBe(200);
        expect((await p("DELETE", sso, { token: owner })).status).toBe(404);
        expect((await p("DELETE", `${domains}/${domainId}`, { token: ada.token })).status).toBe(403);
        expect((await p("DELETE", `${domains}/${domainId}`, { token: owner })).status).toBe(200);
      } finally {
        await idp?.close();
      }
    },
    SLOW,
  );
  it("institution API keys: make, list, revoke; a key on the routes its scope opens, 403 outside it, 401 once revoked; 400, 403, 404, 422", async () => {
    const target = await createInstitution(owner);
    const keys = `${paths.institutions}/${target.id}/api_keys`;
    const made = await p("POST", keys, {
      token: owner,
      body: { name: "Prism sync", scopes: ["cohorts:read", "cohorts:write"], expires_at: null },
      headers: { "Idempotency-Key": uniq("key") },
    });
    expect(made.status).toBe(201);
    const key: string = made.body.key;
    expect(key).toMatch(/^iak_/);
    expect((await p("GET", keys, { token: owner })).body.api_keys).toEqual([made.body.api_key]);
    expect((await p("POST", keys, { token: owner, body: { name: "two\nlines", scopes: ["cohorts:read"] } })).status).toBe(422);
    // Bodies the document refuses never reach the API through Prism: straight to it.
    expect((await call("POST", keys, { token: owner, rawBody: "[1]", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await p("GET", keys, { token: plain })).status).toBe(404);
    expect((await p("GET", keys, { token: stranger })).status).toBe(404);
    // The key, on the same paths as people.
    expect((await p("GET", `${paths.institutions}/${target.id}/cohorts`, { token: key })).status).toBe(200);
    const cohort = await p("POST", `${paths.institutions}/${target.id}/cohorts`, {
      token: key,
      body: { cohort: { name: uniq("Key cohort") } },
    });
    expect(cohort.status).toBe(201);
    expect(answer(await p("GET", `${paths.institutions}/${target.id}`, { token: key }))).toEqual(
      error(403, "API key lacks the scope institution:read"),
    );
    expect((await p("GET", `${paths.institutions}/${inst.id}/cohorts`, { token: key })).status).toBe(404);
    expect(answer(await p("GET", keys, { token: key }))).toEqual(error(403, "API keys cannot call this route"));

    expect((await p("DELETE", `${keys}/${made.body.api_key.id}`, { token: owner })).status).toBe(200);
    expect((await p("DELETE", `${keys}/${made.body.api_key.id}`, { token: owner })).status).toBe(404);
    const gone = await p("GET", `${paths.institutions}/${target.id}/cohorts`, { token: key, clockOffsetMs: 61_000 });
    expect(answer(gone)).toEqual({ status: 401, body: { message: "Unauthorized" } });
  });

  it("the account's trail: a page of every event the walk recorded, and each type's event shown", async () => {
    const page = await p("GET", EVENTS, { token: owner, query: { limit: 200 } });
    expect(page.status).toBe(200);
    const byType = new Map<string, string>(page.body.events.map((e: { event_type: string; id: string }) => [e.event_type, e.id]));
    expect(byType.size).toBeGreaterThanOrEqual(15);
    for (const id of byType.values()) expect((await p("GET", `${EVENTS}/${id}`, { token: owner })).status).toBe(200);
  });

  it(
    "the probing bound: the 31st refusal in a minute is 429 with Retry-After",
    async () => {
      await withinOneWindow("minute", 59_000);
      const prober = await token(uniqEmail("pr-prober"), { superAdmin: true, account: uniq("acct") });
      const refusals = await Promise.all(Array.from({ length: 30 }, () => call("GET", `${INST}/${inst.id}`, { token: prober })));
      expect(refusals.map((r) => r.status)).toEqual(Array(30).fill(404));
      const bounded = await p("GET", `${INST}/${inst.id}`, { token: prober });
      expect(answer(bounded)).toEqual(error(429, "Too many refused requests, try again later"));
      expect(Number(bounded.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    },
    SLOW,
  );

  it("401 for a token the authorizer refuses, on every route that needs one (each route's successful request again)", async () => {
    for (const route of routes.filter((r) => !r.public && r.auth !== "scim")) {
      const request = succeeded.get(routeKey(route));
      if (!request) continue; // the coverage check below names it
      const res = await p(request.method, request.path, { ...request.opts, token: BAD_TOKEN });
      expect(answer(res), routeKey(route)).toEqual({ status: 401, body: { message: "Unauthorized" } });
    }
  });

  it("the document and its reference page, without a token", async () => {
    expect((await p("GET", OPENAPI)).body.openapi).toBe("3.1.0");
    expect((await p("GET", DOCS)).headers["content-type"]).toMatch(/^text\/html/);
  });

  it("Prism reported no violation, and the walk went through every route of the route table, each with a success", async () => {
    // Prism's log reaches its file behind its answers: wait until every request sent is in it.
    await until("every request in Prism's log", async () =>
      (prism.log().match(/Request received/g)?.length ?? 0) >= sent ? true : undefined,
    );
    await prism.stop();
    expect(flagged).toEqual([]);
    expect(prism.problems()).toEqual([]);
    // Prism did see the walk: each request is in its log.
    expect(prism.log().match(/Request received/g)?.length).toBe(sent);

    // The SCIM routes are described as SCIM, not as this JSON API (docs/scim.md): test/integration/scim*.test.ts
    // check them against the document and the RFC.
    expect([...walked.keys()].sort()).toEqual(
      routes
        .filter((r) => r.auth !== "scim")
        .map(routeKey)
        .sort(),
    );
    const succeededOnce = (statuses: Set<number>) => [...statuses].some((s) => s >= 200 && s < 300);
    for (const [key, statuses] of walked) expect(succeededOnce(statuses), key).toBe(true);
    const seen = new Set([...walked.values()].flatMap((s) => [...s]));
    for (const status of [400, 401, 403, 404, 409, 412, 422, 429]) expect(seen.has(status), String(status)).toBe(true);
  });

  it("the check can fail: with an institution's name typed integer and a required header added to a copy of the document, Prism reports both; and it refuses a request the document refuses", async () => {
    const res = await call("GET", `${INST}/${inst.id}`, { token: bob.token, baseUrl: broken.url, contract: false });
    expect(res.status).toBe(500);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body.type).toBe("https://stoplight.io/prism/errors#VIOLATIONS");
    expect(res.body.validation).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ location: ["response", "body", "institution", "name"], severity: "Error" }),
        expect.objectContaining({ location: ["response", "header"], severity: "Error" }),
      ]),
    );
    expect(res.body.validation).toHaveLength(2);
    expect(JSON.parse(res.headers["sl-violations"] ?? "[]")).toEqual(res.body.validation);
    // The same request through the real document passes: the answer itself is fine.
    const direct = await call("GET", `${INST}/${inst.id}`, { token: bob.token });
    expect(direct.status).toBe(200);
    // Requests are checked too: one the document refuses is answered by Prism and never reaches the API.
    const failures = async () => (await eventsOf(bob.token)).filter((e) => e.event_type === "token_validation_failure").length;
    const before = await failures();
    const refused = await call("POST", ACCEPT, { token: bob.token, body: { token: "short" }, baseUrl: broken.url, contract: false });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY",
      validation: [expect.objectContaining({ location: ["body", "token"], code: "pattern" })],
    });
    expect(await failures()).toBe(before); // the API, which records every failed token, never saw it
    // With --errors, Prism answers each violation and logs that it did (instead of a `Violation:` line). Its log
    // is written after its answer, so a loaded machine can read it before the last line is there: wait for it.
    const problems = await until("Prism's log of both problems", async () => {
      const lines = broken.problems();
      return lines.length >= 2 ? lines : undefined;
    });
    await broken.stop();
    expect(problems).toEqual([
      expect.stringMatching(/Request terminated with error: \S+#VIOLATIONS/),
      expect.stringMatching(/Request terminated with error: \S+#UNPROCESSABLE_ENTITY/),
    ]);
  });
});
