/**
 * What the bundles leave out (docs/cold-starts.md), each function built as `cdk synth` builds it
 * (test/support/bundle.ts, the stack's BUNDLING and per-function define):
 * - the SDK's credential chain beyond the environment's credentials (SSO, ini, process, web identity, IMDS and
 *   container providers, the STS/SSO/sign-in clients they call): Lambda gives only the environment's;
 * - the DynamoDB commands a function never sends: esbuild keeps (and evaluates at import) every command of a
 *   client whose package a dynamically imported module reaches, so this fails when a module that is imported
 *   dynamically (idempotency.ts, users.ts, exports/link.ts, registration-number.ts) imports the DynamoDB client;
 * - the Cognito commands a function never sends (users.ts imported statically: transfer, open, register, SCIM);
 * - semver, whose one importer, the X-Ray SDK's AWS SDK v2 patcher, gets one function (shared/lambda-semver.ts);
 * - in the two authorizers, the route pipeline: at import they evaluate their one read and the Tracer
 *   (shared/tracer.ts); the logger loads at a first failure (shared/failures.ts).
 * And the modules the aliases put in the packages' place do what the packages did for their callers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { bundlingDefine } from "../../infra/api-function.js";
import { ROOT } from "../../infra/local/services.js";
import { handlers } from "../../shared/routes.js";
import { bundleAsDeployed } from "../support/bundle.js";

const dir = mkdtempSync(join(tmpdir(), "lean-bundles-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The credential providers and clients that only the default chain's links beyond the environment use. */
const CHAIN_BEYOND_ENV =
  /node_modules\/(@aws-sdk\/(credential-provider-(node|ini|sso|process|web-identity|http|login)|nested-clients|token-providers)|@smithy\/credential-provider-imds)\//;
/** What only a whole client package keeps: its aggregated client class and its waiters. */
const WHOLE_DYNAMODB = /node_modules\/@aws-sdk\/client-dynamodb\/dist-es\/(DynamoDB\.js|waiters\/)/;
const WHOLE_COGNITO = /node_modules\/@aws-sdk\/client-cognito-identity-provider\/dist-es\/CognitoIdentityProvider\.js/;

/** The inputs that leave bytes in the bundle; and the importers of `module`. */
async function kept(name: string, build: (outfile: string) => ReturnType<typeof bundleAsDeployed>, module = ""): Promise<string[][]> {
  const metafile = await build(join(dir, name, "index.mjs"));
  const output = Object.entries(metafile.outputs).find(([file]) => file.endsWith(".mjs"))?.[1];
  const inputs = Object.entries(output?.inputs ?? {})
    .filter(([, i]) => i.bytesInOutput > 0)
    .map(([path]) => path);
  const importers = Object.entries(metafile.inputs)
    .filter(([, i]) => i.imports.some((x) => x.path === module))
    .map(([path]) => path.replace(/^.*node_modules\//, ""));
  return [inputs, importers];
}

describe("the deployed bundles", () => {
  it("hold no credential provider beyond the environment's (the reference, the SDK as it comes, does), nor all of DynamoDB, nor semver", async () => {
    // The probe's positive control: the plain SDK's default chain matches the pattern.
    const client = 'import { DynamoDBClient } from "@aws-sdk/client-dynamodb"; export const c = new DynamoDBClient({});';
    const [reference = []] = await kept("reference", (outfile) =>
      bundleAsDeployed({ stdin: { contents: client, resolveDir: ROOT, loader: "ts" }, outfile, plainSdk: true }),
    );
    expect(reference.filter((p) => CHAIN_BEYOND_ENV.test(p)).length).toBeGreaterThan(5);

    const api = handlers();
    expect(api.size).toBeGreaterThanOrEqual(30);
    const withPost: string[] = [];
    const withPool: string[] = [];
    for (const [handler, access] of api) {
      const [inputs = [], semverImporters = []] = await kept(
        handler,
        (outfile) =>
          bundleAsDeployed({
            entryPoints: [join(ROOT, "functions", `${handler}.ts`)],
            outfile,
            define: bundlingDefine(access.idempotency === true),
          }),
        "shared/lambda-semver.ts",
      );
      expect(
        inputs.filter((p) => p.includes("node_modules/semver/")),
        handler,
      ).toEqual([]);
      expect(
        semverImporters.filter((p) => p !== "aws-xray-sdk-core/dist/lib/patchers/aws_p.js"),
        handler,
      ).toEqual([]);
      expect(
        inputs.filter((p) => CHAIN_BEYOND_ENV.test(p)),
        handler,
      ).toEqual([]);
      // Every function but the docs pages makes AWS calls, with the environment's credentials in their place.
      if (!handler.startsWith("docs/")) {
        expect(inputs, handler).toContain("shared/lambda-credentials.ts");
        expect(semverImporters, handler).toEqual(["aws-xray-sdk-core/dist/lib/patchers/aws_p.js"]);
      }
      expect(
        inputs.filter((p) => WHOLE_DYNAMODB.test(p)),
        handler,
      ).toEqual([]);
      if (access.idempotency) withPost.push(handler);
      // Every function with the user pool imports the Cognito client statically (users.ts), keeping only what it sends.
      if (access.users) withPool.push(handler);
      expect(
        inputs.filter((p) => WHOLE_COGNITO.test(p)),
        handler,
      ).toEqual([]);
    }
    // The POST functions, whose idempotency.ts is imported dynamically, are among them.
    expect(withPost).toContain("cohorts/create");
    expect(withPool.sort()).toEqual([
      "administrators/transfer",
      "institutions/delete",
      "invitations/open",
      "invitations/register",
      "me/mfa",
      "me/sign-out-everywhere",
      "scim/service",
      "sso/connection",
    ]);
  }, 300_000);

  it("of the two authorizers evaluate their one read and the Tracer at import, nothing of the route pipeline (a route function does)", async () => {
    // What only the middy stack, its telemetry, the audit door or the domain's schemas bring.
    const PIPELINE =
      /node_modules\/(@middy\/|@aws-lambda-powertools\/(logger|metrics)\/)|^shared\/(pipeline|telemetry|audit|institutions\/schema)\.ts$/;
    /**
     * The inputs a cold start evaluates: those the entry reaches through static imports. A module behind a dynamic
     * import (the logger an authorizer loads at its first failure, shared/failures.ts) is bundled, but runs only then.
     */
    const evaluatedAtImport = async (handler: string): Promise<string[]> => {
      const entry = `functions/${handler}.ts`;
      const metafile = await bundleAsDeployed({
        entryPoints: [join(ROOT, entry)],
        outfile: join(dir, `evaluated-${handler.replace("/", "-")}`, "index.mjs"),
        define: bundlingDefine(false),
      });
      const reached = new Set<string>();
      const queue = Object.keys(metafile.inputs).filter((p) => p.endsWith(entry));
      expect(queue, entry).toHaveLength(1);
      while (queue.length > 0) {
        const path = queue.pop() as string;
        if (reached.has(path)) continue;
        reached.add(path);
        for (const i of metafile.inputs[path]?.imports ?? []) if (i.kind !== "dynamic-import" && !i.external) queue.push(i.path);
      }
      return [...reached];
    };
    const route = await evaluatedAtImport("institutions/show");
    expect(route.filter((p) => PIPELINE.test(p)).length).toBeGreaterThan(4);
    for (const authorizer of ["api-keys/authorizer", "scim/authorizer"]) {
      const inputs = await evaluatedAtImport(authorizer);
      expect(
        inputs.filter((p) => PIPELINE.test(p)),
        authorizer,
      ).toEqual([]);
      expect(
        inputs.some((p) => p.includes("node_modules/@aws-lambda-powertools/tracer/")),
        authorizer,
      ).toBe(true);
    }
  }, 120_000);
});

describe("semver's place (shared/lambda-semver.ts)", () => {
  it("compares versions as semver.gte does for the X-Ray patcher's check", async () => {
    const { gte } = await import("../../shared/lambda-semver.js");
    expect([gte("3.1169.0", "2.7.15"), gte("2.7.15", "2.7.15"), gte("v2.10.0", "2.9.1")]).toEqual([true, true, true]);
    expect([gte("2.7.14", "2.7.15"), gte("1.99.99", "2.0.0")]).toEqual([false, false]);
    expect(() => gte("not a version", "2.7.15")).toThrow(/Invalid Version/);
  });
});

describe("the environment's credentials in the chain's place (shared/lambda-credentials.ts)", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("are the function's role's, as Lambda sets them", async () => {
    const { defaultProvider } = await import("../../shared/lambda-credentials.js");
    process.env.AWS_ACCESS_KEY_ID = "ASIALAMBDAROLE000001";
    process.env.AWS_SECRET_ACCESS_KEY = "secret";
    process.env.AWS_SESSION_TOKEN = "session";
    const credentials = await defaultProvider()();
    expect(credentials).toMatchObject({ accessKeyId: "ASIALAMBDAROLE000001", secretAccessKey: "secret", sessionToken: "session" });
  });

  it("fail with the SDK's error when the environment has none", async () => {
    const { defaultProvider } = await import("../../shared/lambda-credentials.js");
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    await expect(defaultProvider()()).rejects.toThrow(/environment variable credentials/);
  });
});
