/**
 * Issue 14, points 2 and 5 (docs/contract/README.md, "Text is checked as text"; "Mail text never carries a line
 * break or control character from user data"):
 * - `name`, `registration_number`, `contact_phone` and a cohort's `name` are single-line: any Unicode Cc
 *   (line breaks and tab included) or Cf character (zero-width, bidi controls) gives 422
 *   "<Field> contains invalid characters" and nothing is stored; `address` keeps line breaks (CRLF as
 *   LF) and refuses every other Cc/Cf;
 * - invitation mail carries no line break or control character from user data: not from the inviter's
 *   `name` claim (which a user can edit), not from an institution name stored before the rule;
 * - registration numbers are unique per account after NFKC and case folding, and no value of a key part
 *   (an account id with `#`) makes two keys collide;
 * - lengths count code points.
 *
 * The forbidden characters sit inside the value, never at its ends, where trimming alone would take a
 * line break or a BOM away before any rule is applied.
 */
import { describe, expect, it } from "vitest";
import { call, sentMail, token, uniq, uniqEmail } from "../support/api.js";
import { CC_OR_CF, createInstitution, INST, INV, invite, storeLegacyName } from "../support/flows.js";

/** Cc: line breaks, tab, NUL, BEL, VT, DEL, NEL (C1). Cf: soft hyphen, ZWSP, ZWNJ, LRM, RLO, LRI, word joiner, BOM. */
const FORBIDDEN = [
  ["LF", "\n"],
  ["CRLF", "\r\n"],
  ["CR", "\r"],
  ["TAB", "\t"],
  ["NUL", "\u0000"],
  ["BEL", "\u0007"],
  ["VT", "\u000b"],
  ["DEL", "\u007f"],
  ["NEL", "\u0085"],
  ["SHY", "\u00ad"],
  ["ZWSP", "\u200b"],
  ["ZWNJ", "\u200c"],
  ["LRM", "\u200e"],
  ["RLO", "\u202e"],
  ["LRI", "\u2066"],
  ["WJ", "\u2060"],
  ["BOM", "\ufeff"],
  // Issue 25 (docs/security.md): line separators and the characters that render as nothing.
  ["LS", "\u2028"],
  ["PS", "\u2029"],
  ["HANGUL CHOSEONG FILLER", "\u115f"],
  ["HANGUL JUNGSEONG FILLER", "\u1160"],
  ["HANGUL FILLER", "\u3164"],
  ["HALFWIDTH HANGUL FILLER", "\uffa0"],
  ["CGJ", "\u034f"],
  ["VS1", "\ufe00"],
  ["VS16", "\ufe0f"],
  ["VS17", "\u{e0100}"],
  ["VS256", "\u{e01ef}"],
  ["BRAILLE BLANK", "\u2800"],
] as const;

/** For the address: every one of the above but the line breaks. */
const FORBIDDEN_IN_ADDRESS = FORBIDDEN.filter(([label]) => label !== "LF" && label !== "CRLF" && label !== "CR");

const SINGLE_LINE = [
  ["name", "Name", (c: string) => `Acme${c}College`],
  ["registration_number", "Registration number", (c: string) => `${uniq("REG")}${c}7`],
  ["contact_phone", "Contact phone", (c: string) => `+1 555${c}0100`],
] as const;

async function superAdmin(label = "owner", name?: string): Promise<string> {
  return token(uniqEmail(label), { superAdmin: true, account: uniq("acct"), ...(name !== undefined && { name }) });
}

async function institutionCount(tok: string): Promise<number> {
  const res = await call("GET", INST, { token: tok });
  expect(res.status).toBe(200);
  return res.body.institutions.length;
}

describe("single-line fields", () => {
  it("create: a Cc or Cf character inside name, registration number or phone → 422 '<Field> contains invalid characters', nothing stored", async () => {
    const tok = await superAdmin();
    for (const [field, label, value] of SINGLE_LINE) {
      for (const [what, c] of FORBIDDEN) {
        const res = await call("POST", INST, { token: tok, body: { institution: { name: "Valid Name", [field]: value(c) } } });
        expect({ field, what, status: res.status, body: res.body }).toEqual({
          field,
          what,
          status: 422,
          body: { errors: [`${label} contains invalid characters`] },
        });
      }
    }
    expect(await institutionCount(tok)).toBe(0);
  });

  it("update: the same refusals, and the stored record stays as it was", async () => {
    const tok = await superAdmin();
    const inst = await createInstitution(tok, { name: "Stable", registration_number: uniq("R"), contact_phone: "+1 555 0100" });
    const before = (await call("GET", `${INST}/${inst.id}`, { token: tok })).body.institution;
    for (const [field, label, value] of SINGLE_LINE) {
      for (const [what, c] of FORBIDDEN) {
        const res = await call("PATCH", `${INST}/${inst.id}`, { token: tok, body: { institution: { [field]: value(c) } } });
        expect({ field, what, status: res.status, body: res.body }).toEqual({
          field,
          what,
          status: 422,
          body: { errors: [`${label} contains invalid characters`] },
        });
      }
    }
    expect((await call("GET", `${INST}/${inst.id}`, { token: tok })).body.institution).toEqual(before);
  });

  it("a cohort's name: 422 'Name contains invalid characters', no cohort stored", async () => {
    const tok = await superAdmin();
    const inst = await createInstitution(tok);
    for (const [what, c] of FORBIDDEN) {
      const res = await call("POST", `${INST}/${inst.id}/cohorts`, { token: tok, body: { cohort: { name: `Class${c}2026` } } });
      expect({ what, status: res.status, body: res.body }).toEqual({
        what,
        status: 422,
        body: { errors: ["Name contains invalid characters"] },
      });
    }
    expect((await call("GET", `${INST}/${inst.id}/cohorts`, { token: tok })).body.cohorts).toEqual([]);
  });

  it("the issue's examples: a phishing line in a name, and a registration number with a zero-width space or NUL", async () => {
    const tok = await superAdmin();
    const phishing = "Acme.\n\nURGENT: accept here instead: https://evil.example/accept";
    expect(await call("POST", INST, { token: tok, body: { institution: { name: phishing } } })).toMatchObject({
      status: 422,
      body: { errors: ["Name contains invalid characters"] },
    });
    for (const number of ["AC-1\u200b", "AC-1\u0000"]) {
      expect(await call("POST", INST, { token: tok, body: { institution: { name: "X", registration_number: number } } })).toMatchObject({
        status: 422,
        body: { errors: ["Registration number contains invalid characters"] },
      });
    }
    expect(await institutionCount(tok)).toBe(0);
  });

  it("address: line breaks are kept (CRLF stored as LF); any other Cc/Cf → 422 'Address contains invalid characters'", async () => {
    const tok = await superAdmin();
    const made = await call("POST", INST, {
      token: tok,
      body: { institution: { name: "Lines", address: "1 Main St\r\nSpringfield\nUSA" } },
    });
    expect(made.status).toBe(201);
    expect(made.body.institution.address).toBe("1 Main St\nSpringfield\nUSA");
    const id = made.body.institution.id;
    expect((await call("GET", `${INST}/${id}`, { token: tok })).body.institution.address).toBe("1 Main St\nSpringfield\nUSA");
    const patched = await call("PATCH", `${INST}/${id}`, { token: tok, body: { institution: { address: "2 High St\r\n\r\nLeeds" } } });
    expect(patched).toMatchObject({ status: 200, body: { institution: { address: "2 High St\n\nLeeds" } } });

    for (const [what, c] of FORBIDDEN_IN_ADDRESS) {
      const created = await call("POST", INST, { token: tok, body: { institution: { name: "Bad address", address: `1 Main${c}St` } } });
      const updated = await call("PATCH", `${INST}/${id}`, { token: tok, body: { institution: { address: `3 Low${c}St` } } });
      for (const res of [created, updated]) {
        expect({ what, status: res.status, body: res.body }).toEqual({
          what,
          status: 422,
          body: { errors: ["Address contains invalid characters"] },
        });
      }
    }
    expect(await institutionCount(tok)).toBe(1);
    expect((await call("GET", `${INST}/${id}`, { token: tok })).body.institution.address).toBe("2 High St\n\nLeeds");
  });
});

/** The invitation mail just sent to `email`. */
async function mailTo(email: string) {
  const mails = await sentMail(email);
  expect(mails).toHaveLength(1);
  return mails[0] as NonNullable<(typeof mails)[number]>;
}

const lines = (text: string) => text.split(/\r\n|\n|\r/);

describe("invitation mail carries no line break or control character from user data", () => {
  const phishing = "Olive\r\n\r\nURGENT: accept here instead: https://evil.example/accept\u202e\u0007\u200b";

  it("from the inviter's name claim: the mail has the lines of a plain one and no Cc/Cf in subject or text", async () => {
    const account = uniq("acct");
    const plain = await token(uniqEmail("plain"), { superAdmin: true, account, name: "Olive Owner" });
    const evil = await token(uniqEmail("evil"), { superAdmin: true, account, name: phishing });
    // The token really carries the name as the user set it (the gateway passes claims through).
    expect(JSON.parse(Buffer.from(evil.split(".")[1] ?? "", "base64url").toString("utf8")).name).toBe(phishing);
    const inst = await createInstitution(plain, { name: uniq("Mail U") });
    const evilInst = await createInstitution(evil, { name: uniq("Mail U") });

    const baselineTo = uniqEmail("baseline");
    await invite(plain, inst.id, baselineTo);
    const baseline = await mailTo(baselineTo);
    const to = uniqEmail("target");
    await invite(evil, evilInst.id, to);
    const mail = await mailTo(to);

    for (const text of [mail.subject, mail.body.text ?? ""]) {
      expect(lines(text).some((l) => l.trimStart().startsWith("URGENT"))).toBe(false);
      expect(text.replace(/\n/g, "")).not.toMatch(CC_OR_CF);
    }
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(lines(mail.body.text ?? "")).toHaveLength(lines(baseline.body.text ?? "").length);
    // The evidence of who invited stays: the inviter's e-mail address is in the text.
    expect(mail.body.text).toContain(JSON.parse(Buffer.from(evil.split(".")[1] ?? "", "base64url").toString("utf8")).email);
  });

  it("the inviter's name is cut to 64 code points, and no link from user data reaches the mail: only the accept link", async () => {
    const name = `Olive https://evil.example/accept?x=1 www.evil.example ${"o".repeat(200)}`;
    const tok = await token(uniqEmail("linker"), { superAdmin: true, account: uniq("acct"), name });
    const inst = await createInstitution(tok, { name: `Visit evil.example now ${uniq("U")}` });
    const to = uniqEmail("target");
    await invite(tok, inst.id, to);
    const mail = await mailTo(to);
    for (const text of [mail.subject, mail.body.text ?? "", mail.body.html ?? ""]) {
      expect(text).not.toMatch(/evil\.example/);
      expect(text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)/);
      expect(text).not.toContain("o".repeat(65));
    }
    const links = (mail.body.text ?? "").match(/[a-z][a-z0-9+.-]*:\/\/\S+/gi) ?? [];
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(/\/invitations\/accept\?token=[A-Za-z0-9_-]+$/);
  });

  it("from an institution name stored before the rule: sanitised in subject and text", async () => {
    const tok = await superAdmin("legacy", "Olive Owner");
    const clean = await createInstitution(tok, { name: "Clean College" });
    const legacy = await createInstitution(tok, { name: "Legacy College" });
    await storeLegacyName(legacy.id, "Acme.\r\n\r\nURGENT: accept here instead: https://evil.example/accept\u0000\u202e");

    const baselineTo = uniqEmail("baseline");
    await invite(tok, clean.id, baselineTo);
    const baseline = await mailTo(baselineTo);
    const to = uniqEmail("target");
    const res = await call("POST", INV, { token: tok, body: { institution_id: legacy.id, email: to, role: "cohort_admin" } });
    expect(res.status).toBe(201);
    const mail = await mailTo(to);
    for (const text of [mail.subject, mail.body.text ?? ""]) {
      expect(lines(text).some((l) => l.trimStart().startsWith("URGENT"))).toBe(false);
      expect(text.replace(/\n/g, "")).not.toMatch(CC_OR_CF);
    }
    expect(lines(mail.body.text ?? "")).toHaveLength(lines(baseline.body.text ?? "").length);
  });
});

/** `s` in fullwidth forms (U+FF01–U+FF5E), which NFKC maps back to ASCII. */
const fullwidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

describe("registration numbers: one key per number as text, per account", () => {
  it("NFKC and case folding: the fullwidth or other-case form of a taken number is taken, on create and update", async () => {
    const tok = await superAdmin();
    const number = `AC-1-${uniq("n")}`;
    await createInstitution(tok, { registration_number: number });
    for (const lookalike of [
      fullwidth(number),
      fullwidth(number).toLowerCase(),
      number.toLowerCase(),
      ` ${fullwidth(number.toUpperCase())} `,
    ]) {
      const res = await call("POST", INST, { token: tok, body: { institution: { name: "Twin", registration_number: lookalike } } });
      expect({ lookalike, status: res.status, body: res.body }).toEqual({
        lookalike,
        status: 422,
        body: { errors: ["Registration number has already been taken"] },
      });
    }
    const other = await createInstitution(tok);
    const patched = await call("PATCH", `${INST}/${other.id}`, {
      token: tok,
      body: { institution: { registration_number: fullwidth(number) } },
    });
    expect(patched).toMatchObject({ status: 422, body: { errors: ["Registration number has already been taken"] } });
    expect(await institutionCount(tok)).toBe(2);
  });

  it("confusables fold (Unicode TR39 skeleton): Cyrillic АС-1 or AC-l beside AC-1 is taken; the stored value is as sent", async () => {
    const tok = await superAdmin();
    const suffix = uniq("n").replace(/[^a-z0-9]/g, "");
    const number = `AC-1-${suffix}`;
    await createInstitution(tok, { registration_number: number });
    for (const lookalike of [`\u0410\u0421-1-${suffix}`, `AC-l-${suffix}`, `\u0391C-1-${suffix}`, `AC\u20101-${suffix}`]) {
      const res = await call("POST", INST, { token: tok, body: { institution: { name: "Twin", registration_number: lookalike } } });
      expect({ lookalike, status: res.status, body: res.body }).toEqual({
        lookalike,
        status: 422,
        body: { errors: ["Registration number has already been taken"] },
      });
    }
    const distinct = await call("POST", INST, {
      token: tok,
      body: { institution: { name: "Other", registration_number: `AC-2-${suffix}` } },
    });
    expect(distinct.status).toBe(201);
    expect(distinct.body.institution.registration_number).toBe(`AC-2-${suffix}`);
  });

  it("the stored value is the one submitted, trimmed; another account may hold the same number", async () => {
    const number = `ＡＣ-${uniq("n")}`;
    const first = await superAdmin();
    const second = await superAdmin();
    const a = await call("POST", INST, { token: first, body: { institution: { name: "Wide", registration_number: `  ${number} ` } } });
    expect(a).toMatchObject({ status: 201, body: { institution: { registration_number: number } } });
    const b = await call("POST", INST, {
      token: second,
      body: { institution: { name: "Wide", registration_number: number.normalize("NFKC") } },
    });
    expect(b).toMatchObject({ status: 201, body: { institution: { registration_number: number.normalize("NFKC") } } });
  });

  it("an account id holding `#` cannot make two accounts' keys collide", async () => {
    const base = uniq("acct");
    // Joined with `#`, each pair would name one key: `REGNO#<account>#<number>`.
    const pairs: [string, string, string, string][] = [
      [base, "y#z", `${base}#y`, "z"],
      [`${base}-2#`, "q", `${base}-2`, "#q"],
      [`${base}-3#a#b`, "c", `${base}-3`, "a#b#c"],
    ];
    for (const [accountA, numberA, accountB, numberB] of pairs) {
      const a = await token(uniqEmail("hash-a"), { superAdmin: true, account: accountA });
      const b = await token(uniqEmail("hash-b"), { superAdmin: true, account: accountB });
      const first = await call("POST", INST, { token: a, body: { institution: { name: "Hash A", registration_number: numberA } } });
      const second = await call("POST", INST, { token: b, body: { institution: { name: "Hash B", registration_number: numberB } } });
      expect({ accountA, numberA, status: first.status }).toEqual({ accountA, numberA, status: 201 });
      expect({ accountB, numberB, status: second.status, body: second.body.errors }).toEqual({
        accountB,
        numberB,
        status: 201,
        body: undefined,
      });
      expect(second.body.institution).toMatchObject({ account_id: accountB, registration_number: numberB });
      // Within each account the number is still unique.
      for (const [tok, number] of [
        [a, numberA],
        [b, numberB],
      ] as const) {
        const again = await call("POST", INST, { token: tok, body: { institution: { name: "Again", registration_number: number } } });
        expect(again).toMatchObject({ status: 422, body: { errors: ["Registration number has already been taken"] } });
      }
    }
  });
});

describe("lengths count code points", () => {
  const emoji = "\u{1F600}"; // one code point, two UTF-16 units

  it("a name of 128 emoji is accepted and stored whole; of 255 too; 256 is too long", async () => {
    const tok = await superAdmin();
    for (const n of [128, 255]) {
      const name = emoji.repeat(n);
      const res = await call("POST", INST, { token: tok, body: { institution: { name } } });
      expect({ n, status: res.status }).toEqual({ n, status: 201 });
      expect(res.body.institution.name).toBe(name);
    }
    const tooLong = await call("POST", INST, { token: tok, body: { institution: { name: emoji.repeat(256) } } });
    expect(tooLong).toMatchObject({ status: 422, body: { errors: ["Name is too long (maximum is 255 characters)"] } });
  });

  it("registration number (64), address (1000) and a cohort's name (255) count code points too", async () => {
    const tok = await superAdmin();
    const prefix = uniq("R");
    const number = prefix + emoji.repeat(64 - prefix.length);
    const res = await call("POST", INST, {
      token: tok,
      body: { institution: { name: "Wide", registration_number: number, address: emoji.repeat(1000) } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.institution).toMatchObject({ registration_number: number, address: emoji.repeat(1000) });
    const over = await call("POST", INST, {
      token: tok,
      body: { institution: { name: "Wider", registration_number: `${number}${emoji}`, address: emoji.repeat(1001) } },
    });
    expect(over.status).toBe(422);
    expect([...over.body.errors].sort()).toEqual([
      "Address is too long (maximum is 1000 characters)",
      "Registration number is too long (maximum is 64 characters)",
    ]);
    const cohort = await call("POST", `${INST}/${res.body.institution.id}/cohorts`, {
      token: tok,
      body: { cohort: { name: emoji.repeat(255) } },
    });
    expect(cohort).toMatchObject({ status: 201, body: { cohort: { name: emoji.repeat(255) } } });
    const longCohort = await call("POST", `${INST}/${res.body.institution.id}/cohorts`, {
      token: tok,
      body: { cohort: { name: emoji.repeat(256) } },
    });
    expect(longCohort).toMatchObject({ status: 422, body: { errors: ["Name is too long (maximum is 255 characters)"] } });
  });
});
