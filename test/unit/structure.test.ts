/**
 * The structure, measured from the imports (madge, type-only imports included): no import circle in shared/,
 * functions/ or infra/, and no module of a feature (`shared/<feature>/`) importing the API document's layer
 * (`shared/openapi/`): the document is built from the domain, never the other way round. The generated client types
 * are a leaf, and the response schemas are imported at run time by the document alone (no handler's bundle carries
 * them). And one clock: the current time is read in shared/clock.ts only, so the local stack's clock offset reaches
 * every use of it. And one pipeline: only shared/pipeline.ts builds a middy stack. And one membership door: access
 * records and member markers are written by shared/membership/ alone, and the institution's version guard has one builder.
 */
import { readFileSync } from "node:fs";
import madge from "madge";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const graph = await madge(["shared", "functions", "infra"], { fileExtensions: ["ts"], tsConfig: "tsconfig.json" });
const imports = graph.obj();

const FEATURE = /^shared\/(?!openapi\/)[^/]+\//;
const API_TYPES = "shared/openapi/api-types.ts";
const isResponses = (f: string) => /^shared\/(?:[^/]+\/)?responses\.ts$/.test(f);

describe("the import graph", () => {
  it("reads every module of shared/, functions/ and infra/", () => {
    expect(graph.warnings().skipped).toEqual([]);
    expect(Object.keys(imports).length).toBeGreaterThan(100);
    expect(imports["shared/tx.ts"]).toContain("shared/clients.ts");
  });

  it("has no import circle", () => {
    expect(graph.circular().map((c) => c.join(" > "))).toEqual([]);
  });

  it("has no arrow from a feature up into shared/openapi/", () => {
    const arrows = Object.entries(imports).flatMap(([from, to]) =>
      FEATURE.test(from) ? to.filter((t) => t.startsWith("shared/openapi/")).map((t) => `${from} -> ${t}`) : [],
    );
    expect(arrows).toEqual([]);
  });

  it("keeps the generated client types (shared/openapi/api-types.ts) a leaf for the console and the tests", () => {
    expect(imports[API_TYPES]).toEqual([]);
    expect(Object.keys(imports).filter((f) => imports[f]?.includes(API_TYPES))).toEqual([]);
  });

  it("gives the response schemas (responses.ts) to the document alone: everywhere else they are `import type`", () => {
    const importers = Object.entries(imports).filter(([from, to]) => !from.startsWith("shared/openapi/") && to.some(isResponses));
    const runtime = importers.flatMap(([from]) =>
      readFileSync(from, "utf8")
        .split("\n")
        .map((line, i) => ({ at: `${from}:${i + 1}`, line }))
        // A response module may build on another's schemas (shared/responses.ts); a service or handler may not.
        .filter(({ line }) => /^import (?!type )[^;]*responses\.js";$/.test(line) && !isResponses(from)),
    );
    expect(runtime.map((r) => r.at)).toEqual([]);
    // The use cases do take their types from them (through results.ts), so the check above reads real imports.
    expect(importers.map(([from]) => from)).toContain("shared/institutions/results.ts");
    expect(imports["shared/openapi/responses.ts"]).toContain("shared/institutions/responses.ts");
  });
});

/**
 * Reads of the system clock allowed outside shared/clock.ts, by file. shared/idempotency.ts compares with the
 * in-progress expiry Powertools stamped in system time, which the domain's (offset) clock must not judge;
 * shared/lambda-credentials.ts stands in for the SDK's credential chain, whose expiry is the system's too.
 */
const SYSTEM_TIME = new Set(["shared/idempotency.ts", "shared/lambda-credentials.ts"]);

describe("the clock", () => {
  it("is read in shared/clock.ts only (no `new Date()` or `Date.now()` elsewhere in shared/ and functions/)", () => {
    const modules = Object.keys(imports).filter((f) => /^(shared|functions)\//.test(f) && f !== "shared/clock.ts");
    const reads = modules.flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .map((line, i) => ({ at: `${f}:${i + 1}`, line }))
        .filter(({ line }) => /new Date\(\)|Date\.now\(\)/.test(line) && !SYSTEM_TIME.has(f)),
    );
    expect(reads.map((r) => r.at)).toEqual([]);
    expect(modules.length).toBeGreaterThan(50);
  });
});

describe("the route rules", () => {
  it("are applied by the middleware alone: no `requireSuperAdmin(` call outside shared/http.ts (and its definition)", () => {
    const callers = Object.keys(imports).filter(
      (f) => f !== "shared/http.ts" && f !== "shared/refusals.ts" && readFileSync(f, "utf8").includes("requireSuperAdmin("),
    );
    expect(callers).toEqual([]);
    expect(readFileSync("shared/http.ts", "utf8")).toContain("await requireSuperAdmin(");
  });
});

/** `middy(` or `middy<…>(`: a call that builds a middy stack. */
const MIDDY_CALL = /\bmiddy\s*(?:<[^()]*>)?\s*\(/;
/** `import middy from "@middy/core"` (a value import; `import type` builds nothing). */
const MIDDY_VALUE_IMPORT = /^import (?!type )[^;]*from "@middy\/core";$/m;

describe("the one pipeline", () => {
  it("is the only module that builds a middy stack: a second one is a copy that can lose a guard (SCIM's lost the origin check)", () => {
    const modules = Object.keys(imports);
    const building = modules.filter((f) => {
      const text = readFileSync(f, "utf8");
      return MIDDY_CALL.test(text) || MIDDY_VALUE_IMPORT.test(text);
    });
    expect(building).toEqual(["shared/pipeline.ts"]);
    // The check reads what it looks for: the pipeline does both.
    const pipeline = readFileSync("shared/pipeline.ts", "utf8");
    expect([MIDDY_CALL.test(pipeline), MIDDY_VALUE_IMPORT.test(pipeline)]).toEqual([true, true]);
    expect(MIDDY_CALL.test("return middy<E, HttpResult, Error, C>()")).toBe(true);
  });
});

/**
 * Where `source` names a membership's keys (`keys.access(…)`, `keys.memberEmail(…)`) other than to read or check
 * them: anything but an argument of a `GetCommand` or `QueryCommand` or a `ConditionCheck` item. A
 * `Put`, `Update` or `Delete` of an access record or a member marker is such a place, and so is a key kept aside
 * to write later.
 */
function membershipWrites(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const at = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const found: string[] = [];
  const visit = (n: ts.Node, reading: boolean): void => {
    if (ts.isNewExpression(n) && /^(Get|Query)Command$/.test(n.expression.getText(sf))) reading = true;
    if (ts.isPropertyAssignment(n) && n.name.getText(sf) === "ConditionCheck") reading = true;
    if (ts.isCallExpression(n) && /^keys\.(access|memberEmail)$/.test(n.expression.getText(sf)) && !reading) found.push(at(n));
    ts.forEachChild(n, (child) => visit(child, reading));
  };
  visit(sf, false);
  return found;
}

/** Where `source` builds an update of the institution item conditioned on its version (an `Update` with `Key: keys.institution(…)`). */
function versionGuards(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAssignment(n) && n.name.getText(sf) === "Update" && ts.isObjectLiteralExpression(n.initializer)) {
      const props = new Map(
        n.initializer.properties.filter(ts.isPropertyAssignment).map((p) => [p.name.getText(sf), p.initializer.getText(sf)] as const),
      );
      if (props.get("Key")?.startsWith("keys.institution(") && /version/.test(props.get("ConditionExpression") ?? "")) {
        found.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

const MEMBERSHIP = /^shared\/membership\//;
const runtimeModules = () => Object.keys(imports).filter((f) => /^(shared|functions|infra)\//.test(f));

describe("the membership door (docs/code-structure.md)", () => {
  it("is the only writer of access records and member markers: no other module names their keys but to read or check them", () => {
    const outside = runtimeModules().filter((f) => !MEMBERSHIP.test(f));
    expect(outside.flatMap((f) => membershipWrites(f, readFileSync(f, "utf8")))).toEqual([]);
    // The door itself writes them, and the check finds its writes.
    expect(
      membershipWrites("shared/membership/repository.ts", readFileSync("shared/membership/repository.ts", "utf8")).length,
    ).toBeGreaterThan(5);
    // Reads and checks elsewhere are there, and allowed.
    expect(readFileSync("shared/invitations/repository.ts", "utf8")).toContain("Key: keys.memberEmail(");
    expect(readFileSync("shared/administrators/repository.ts", "utf8")).toContain("...keys.access(");
  });

  it("the check fails on a write of an access record or a marker outside the door, as a transaction item, a command or a kept key", () => {
    const written = [
      "const a = { Delete: { TableName: T(), Key: keys.access(user, inst) } };",
      "const b = { Put: { TableName: T(), Item: { ...keys.memberEmail(inst, email), user_id } } };",
      'await db.send(new UpdateCommand({ TableName: T(), Key: keys.access(user, inst), UpdateExpression: "SET #r = :r" }));',
      "const key = keys.access(user, inst);",
    ].join("\n");
    expect(membershipWrites("x.ts", written)).toEqual(["x.ts:1", "x.ts:2", "x.ts:3", "x.ts:4"]);
    const read = [
      "await db.send(new GetCommand({ TableName: T(), Key: keys.access(user, inst) }));",
      "const c = { ConditionCheck: { TableName: T(), Key: keys.memberEmail(inst, email), ConditionExpression: 'attribute_not_exists(pk)' } };",
    ].join("\n");
    expect(membershipWrites("y.ts", read)).toEqual([]);
  });

  it("the institution's version guard has one builder (shared/institutions/version.ts), and the check finds it", () => {
    const builders = runtimeModules().flatMap((f) => versionGuards(f, readFileSync(f, "utf8")));
    expect(builders.map((at) => at.replace(/:\d+$/, ""))).toEqual(["shared/institutions/version.ts"]);
  });

  it("has one removal: only the door reads the invitations a member sent, to revoke them", () => {
    const readers = runtimeModules().filter(
      (f) => !MEMBERSHIP.test(f) && /activeInvitationsSentBy\(|revocationItems\(/.test(readFileSync(f, "utf8")),
    );
    expect(readers).toEqual(["shared/invitations/repository.ts"]);
  });
});
