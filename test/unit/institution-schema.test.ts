import { describe, expect, it } from "vitest";
import { BadRequest, ValidationFailed } from "../../shared/errors.js";
import { institutionCreate, institutionInput } from "../../shared/institutions/schema.js";
import { parseRoot, submittedKeys } from "../../shared/validation.js";

const parse = (institution: unknown) => parseRoot({ institution }, "institution", institutionInput);
const errorsOf = (institution: unknown) => {
  try {
    parse(institution);
  } catch (e) {
    if (e instanceof ValidationFailed) return e.errors;
    throw e;
  }
  return [];
};

describe("institution input", () => {
  it("keeps only whitelisted keys, inside institution and settings", () => {
    const out = parse({
      name: " Acme ",
      account_id: "evil",
      super_admin_id: "evil",
      __proto__: { polluted: true },
      settings: { auto_finalize: true, admin: true },
    });
    expect(out).toEqual({ name: "Acme", settings: { auto_finalize: true } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers 400 when the institution key is missing or not an object", () => {
    for (const body of [undefined, {}, { institution: null }, { institution: "x" }, { institution: [] }, []]) {
      expect(() => parseRoot(body, "institution", institutionInput)).toThrow(BadRequest);
    }
    expect(() => parseRoot({}, "institution", institutionInput)).toThrow("param is missing or the value is empty: institution");
  });

  it("reports each invalid field with a full message", () => {
    expect(errorsOf({ name: "   " })).toEqual(["Name can't be blank"]);
    expect(errorsOf({ name: "x".repeat(256) })).toEqual(["Name is too long (maximum is 255 characters)"]);
    expect(errorsOf({ name: 5 })).toEqual(["Name is invalid"]);
    expect(errorsOf({ contact_email: "not-an-email" })).toEqual(["Contact email is invalid"]);
    expect(errorsOf({ contact_phone: "12" })).toEqual(["Contact phone is invalid"]);
    expect(errorsOf({ contact_phone: "call me maybe" })).toEqual(["Contact phone is invalid"]);
    expect(errorsOf({ registration_number: "r".repeat(65) })).toEqual(["Registration number is too long (maximum is 64 characters)"]);
    expect(errorsOf({ address: "a".repeat(1001) })).toEqual(["Address is too long (maximum is 1000 characters)"]);
    expect(errorsOf({ settings: { auto_finalize: "yes" } })).toEqual(["Settings auto finalize must be true or false"]);
    expect(errorsOf({ settings: "on" })).toEqual(["Settings is invalid"]);
    expect(errorsOf({ name: "", contact_email: "x" })).toEqual(["Name can't be blank", "Contact email is invalid"]);
  });

  it("requires a name on create, reported with the other errors", () => {
    const create = (institution: unknown) => {
      try {
        parseRoot({ institution }, "institution", institutionCreate);
      } catch (e) {
        if (e instanceof ValidationFailed) return e.errors;
        throw e;
      }
      return [];
    };
    expect(create({})).toEqual(["Name can't be blank"]);
    expect(create({ name: null, contact_email: "x" })).toEqual(["Name can't be blank", "Contact email is invalid"]);
    expect(create({ name: "Ok" })).toEqual([]);
  });

  it("accepts valid values and blanks for optional fields", () => {
    expect(parse({ name: "A", contact_phone: "+44 (0)20 7946-0958", contact_email: "a@b.co", address: "" })).toEqual({
      name: "A",
      contact_phone: "+44 (0)20 7946-0958",
      contact_email: "a@b.co",
      address: "",
    });
  });

  it("lists submitted whitelisted keys for the update event", () => {
    expect(submittedKeys({ institution: { name: "x", evil: 1, settings: {} } }, "institution", ["name", "settings"])).toEqual([
      "name",
      "settings",
    ]);
  });
});
