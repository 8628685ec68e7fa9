/** §18's pure rules of a federated sign-in: the provider of a federated user name, the groups as the pool keeps them, the role they map to. */
import { describe, expect, it } from "vitest";
import { groupsOf, providerOfUserName, roleFor } from "../../shared/sso/sign-in.js";

describe("a federated sign-in", () => {
  it("names its provider before the first underscore of Cognito's user name <provider>_<subject>", () => {
    expect(providerOfUserName("acme-college-m8k1c6b0e7_ada@acme.edu")).toBe("acme-college-m8k1c6b0e7");
    expect(providerOfUserName("acme-m8k1c6b0e7_a_b_c")).toBe("acme-m8k1c6b0e7");
    expect(providerOfUserName("ada@acme.edu")).toBeUndefined();
    expect(providerOfUserName("_x")).toBeUndefined();
  });

  it("reads the groups as SAML's multi-valued rendering, an OIDC array claim, or one value", () => {
    expect(groupsOf("[Staff, IT Admins]")).toEqual(["Staff", "IT Admins"]);
    expect(groupsOf('["staff","__proto__"]')).toEqual(["staff", "__proto__"]);
    expect(groupsOf("staff")).toEqual(["staff"]);
    expect(groupsOf(undefined)).toEqual([]);
    expect(groupsOf("  ")).toEqual([]);
  });

  it("gives the highest role any group maps to, else the default; names are data", () => {
    const mappings = [
      { group: "staff", role: "cohort_admin" as const },
      { group: "__proto__", role: "cohort_super_admin" as const },
    ];
    expect(roleFor(["staff"], mappings, "cohort_admin")).toBe("cohort_admin");
    expect(roleFor(["staff", "__proto__"], mappings, "cohort_admin")).toBe("cohort_super_admin");
    expect(roleFor(["constructor"], mappings, "cohort_super_admin")).toBe("cohort_super_admin");
    expect(roleFor([], [], "cohort_admin")).toBe("cohort_admin");
  });
});
