/**
 * The environment's names are declared once (shared/settings.ts): every `process.env` read in shared/, functions/
 * and infra/ names a declared setting, a bundle constant, or a process setting of the local stack
 * (infra/local/env.ts); each name is in one group; a bad value is refused with its name, at module load.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Lazy } from "aws-cdk-lib";
import { describe, expect, it, vi } from "vitest";
import { localHandlerEnv, PROCESS_SETTINGS } from "../../infra/local/env.js";
import {
  BUNDLE_CONSTANTS,
  CORE,
  EDGE,
  type Environment,
  environment,
  GROUPS,
  readSettings,
  type SettingName,
  STREAM,
} from "../../shared/settings.js";

const declaredByGroup = Object.entries(GROUPS).flatMap(([group, declare]) => Object.keys(declare()).map((name) => ({ group, name })));
const declared = new Set<string>(declaredByGroup.map((d) => d.name));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|mjs)$/.test(entry) && !entry.endsWith(".d.ts") ? [path] : [];
  });
}

/** `process.env.X`, `process.env["X"]`, and `const { X, Y: y } = process.env`. */
function reads(text: string): string[] {
  const dotted = [...text.matchAll(/process\.env\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] ?? "");
  const indexed = [...text.matchAll(/process\.env\[\s*["'`]([^"'`]+)["'`]\s*\]/g)].map((m) => m[1] ?? "");
  const destructured = [...text.matchAll(/\{([^{}]*)\}\s*=\s*process\.env\b/g)].flatMap((m) =>
    (m[1] ?? "").split(",").map((part) => part.split(":")[0]?.trim() ?? ""),
  );
  return [...dotted, ...indexed, ...destructured].filter(Boolean);
}

/** Reads by a name in a variable: the local stack's helpers that take the name as an argument, each reading a process setting. */
const DYNAMIC_READS = new Set(["infra/local/gateway.ts", "infra/local/start.ts"]);

describe("the declared names", () => {
  const files = ["shared", "functions", "infra"].flatMap(sources).filter((f) => f !== join("shared", "settings.ts"));

  it("cover every process.env read in shared/, functions/ and infra/", () => {
    expect(files.length).toBeGreaterThan(100);
    const allowed = new Set<string>([...declared, ...BUNDLE_CONSTANTS, ...PROCESS_SETTINGS]);
    const undeclared = files.flatMap((f) =>
      reads(readFileSync(f, "utf8"))
        .filter((name) => !allowed.has(name))
        .map((name) => `${f}: ${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it("are read through the settings in function code: process.env only for a bundle constant (esbuild replaces those)", () => {
    const functionCode = files.filter((f) => /^(shared|functions)\//.test(f));
    const direct = functionCode.flatMap((f) =>
      reads(readFileSync(f, "utf8"))
        .filter((name) => !(BUNDLE_CONSTANTS as readonly string[]).includes(name))
        .map((name) => `${f}: ${name}`),
    );
    expect(direct).toEqual([]);
  });

  it("and a name in a variable only where the local stack reads its own process settings", () => {
    const dynamic = files.filter((f) => /process\.env\[\s*[A-Za-z_]/.test(readFileSync(f, "utf8")) && !DYNAMIC_READS.has(f));
    expect(dynamic).toEqual([]);
  });

  it("the scan itself finds each form of read", () => {
    expect(reads('a = process.env.NOT_DECLARED; b = process.env["ALSO_NOT"]; const { X_ONE, X_TWO: two } = process.env;')).toEqual([
      "NOT_DECLARED",
      "ALSO_NOT",
      "X_ONE",
      "X_TWO",
    ]);
  });

  it("name each setting once, in one group, and none a process setting too", () => {
    const seen = declaredByGroup.map((d) => d.name);
    expect(seen.filter((name, i) => seen.indexOf(name) !== i)).toEqual([]);
    expect(PROCESS_SETTINGS.filter((name) => declared.has(name))).toEqual([]);
    expect(declared.size).toBeGreaterThan(50);
  });

  it("are all the local stack sets for its functions", () => {
    const env = localHandlerEnv({
      tables: { main: "m", events: "e", idempotency: "i" },
      dynamodbEndpoint: "http://127.0.0.1:1",
      sesEndpoint: "http://127.0.0.1:2",
      region: "us-east-1",
      trail: { eventRetentionDays: 90, digestPeriodSeconds: 3600, keyId: "local:x", privateKeyFile: "/k", publicKeyFile: "/p" },
      s3Endpoint: "http://127.0.0.1:3",
      userPoolId: "pool",
      cognitoEndpoint: "http://127.0.0.1:4",
    });
    expect(Object.keys(env).filter((name) => !declared.has(name))).toEqual([]);
    expect(env.MAIN_TABLE).toBe("m");
  });
});

describe("environment()", () => {
  it("keeps the values set, by declared name, checked against their schemas, and leaves out the unset", () => {
    const vars: Environment = { MAIN_TABLE: "main", IDEMPOTENCY_TABLE: undefined, DIGEST_PERIOD_SECONDS: "60" };
    expect(environment(vars)).toEqual({ MAIN_TABLE: "main", DIGEST_PERIOD_SECONDS: "60" });
    // @ts-expect-error: a misspelt name fails typecheck (`npm run typecheck` covers test/).
    expect(() => environment({ MAIN_TABEL: "main" })).toThrow(/MAIN_TABEL is not a declared setting/);
    expect(() => environment({ DIGEST_PERIOD_SECONDS: "7" })).toThrow(/DIGEST_PERIOD_SECONDS is "7"/);
    expect(() => environment({ POWERTOOLS_LOG_LEVEL: "LOUD" })).toThrow(/POWERTOOLS_LOG_LEVEL is "LOUD"/);
    // A CDK token is resolved at deployment: the function checks it at its cold start.
    const token = Lazy.string({ produce: () => "2" });
    expect(environment({ EXPORT_SLOTS: token })).toEqual({ EXPORT_SLOTS: token });
    const name: SettingName = "EVENTS_TABLE";
    expect(declared.has(name)).toBe(true);
  });
});

describe("readSettings()", () => {
  const period = (value: string | undefined) => readSettings(CORE(), ["DIGEST_PERIOD_SECONDS"], { DIGEST_PERIOD_SECONDS: value });

  it("takes a digest period of 60 to 3600 seconds that divides the hour, 3600 when unset or empty", () => {
    expect(period("60").DIGEST_PERIOD_SECONDS).toBe(60);
    expect(period("900").DIGEST_PERIOD_SECONDS).toBe(900);
    expect(period(undefined).DIGEST_PERIOD_SECONDS).toBe(3600);
    expect(period("").DIGEST_PERIOD_SECONDS).toBe(3600);
  });

  it("refuses any other period, naming the variable and the value", () => {
    expect(() => period("7")).toThrow(/DIGEST_PERIOD_SECONDS is "7": must be a whole number from 60 to 3600/);
    expect(() => period("1000")).toThrow(/DIGEST_PERIOD_SECONDS is "1000": must divide 3600/);
    expect(() => period("7200")).toThrow(/DIGEST_PERIOD_SECONDS is "7200"/);
    expect(() => period("60.5")).toThrow(/DIGEST_PERIOD_SECONDS/);
    expect(() => period("abc")).toThrow(/DIGEST_PERIOD_SECONDS/);
  });

  it("refuses a missing table, a bound that is not a positive integer and a flag that is not true or false, all at once", () => {
    const read = () =>
      readSettings({ ...CORE(), ...EDGE() }, ["MAIN_TABLE", "PENDING_INVITATION_LIMIT", "TRUST_CLOUDFRONT_VIEWER_ADDRESS"], {
        PENDING_INVITATION_LIMIT: "0",
        TRUST_CLOUDFRONT_VIEWER_ADDRESS: "yes",
      });
    expect(read).toThrow(/MAIN_TABLE is missing/);
    expect(read).toThrow(/PENDING_INVITATION_LIMIT is "0": must be a whole number from 1 up/);
    expect(read).toThrow(/TRUST_CLOUDFRONT_VIEWER_ADDRESS is "yes"/);
  });

  it("applies the declared defaults and types", () => {
    const s = readSettings(STREAM(), ["WEBHOOKS_PER_ACCOUNT", "WEBHOOK_ALLOW_LOOPBACK_HTTP", "EVENT_BUS_NAME"], {});
    expect(s).toEqual({ WEBHOOKS_PER_ACCOUNT: 5, WEBHOOK_ALLOW_LOOPBACK_HTTP: false, EVENT_BUS_NAME: undefined });
    expect(
      readSettings(STREAM(), ["WEBHOOK_ALLOW_LOOPBACK_HTTP"], { WEBHOOK_ALLOW_LOOPBACK_HTTP: "true" }).WEBHOOK_ALLOW_LOOPBACK_HTTP,
    ).toBe(true);
  });
});

describe("shared/config.ts", () => {
  it("fails at load, naming the variable, when a deployment sets a bad digest period", async () => {
    const before = process.env.DIGEST_PERIOD_SECONDS;
    process.env.DIGEST_PERIOD_SECONDS = "7";
    try {
      vi.resetModules();
      await expect(import("../../shared/config.js")).rejects.toThrow(/Bad environment: DIGEST_PERIOD_SECONDS is "7"/);
    } finally {
      if (before === undefined) delete process.env.DIGEST_PERIOD_SECONDS;
      else process.env.DIGEST_PERIOD_SECONDS = before;
      vi.resetModules();
    }
    const { config } = await import("../../shared/config.js");
    expect(config.digestPeriodSeconds).toBe(Number(before ?? 3600));
  });
});
