/**
 * The idempotency middleware costs nothing to a function without a POST route: the stack's per-function
 * `define` (bundlingDefine of infra/stack.ts) lets esbuild drop it, and Powertools' idempotency utility with
 * it, from that bundle; every function with a POST route has it.
 */
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { bundlingDefine, ESBUILD_TARGET } from "../../infra/api-function.js";
import { ROOT } from "../../infra/local/services.js";
import { handlers, routes, takesIdempotencyKey } from "../../shared/routes.js";

const hasPost = (handler: string) => routes.some((r) => r.handler === handler && takesIdempotencyKey(r.method));

/** What one function's bundle loads: its own modules and the packages it imports. */
async function loaded(handler: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [join(ROOT, "functions", `${handler}.ts`)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: ESBUILD_TARGET,
    define: bundlingDefine(hasPost(handler)),
    write: false,
    outdir: "out",
    metafile: true,
    // Packages stay imports (listed in the metafile): all this needs, and fast.
    packages: "external",
    logLevel: "error",
  });
  return Object.values(metafile.outputs).flatMap((o) => [...Object.keys(o.inputs), ...o.imports.map((i) => i.path)]);
}

describe("the idempotency middleware in the bundles", () => {
  it("is in every function with a POST route, and in no other", async () => {
    const names = [...handlers().keys()];
    expect(names.filter(hasPost).length).toBeGreaterThanOrEqual(5);
    for (const handler of names) {
      const inputs = await loaded(handler);
      const has = inputs.some((i) => i.endsWith("shared/idempotency.ts") || i.startsWith("@aws-lambda-powertools/idempotency"));
      expect(has, handler).toBe(hasPost(handler));
    }
  });
});

describe("the Cognito client in the bundles", () => {
  it("is only in the functions that create users (route access `users`: open and register)", async () => {
    const users = [...handlers()].filter(([, a]) => a.users).map(([h]) => h);
    expect(users.sort()).toEqual(["invitations/open", "invitations/register"]);
    for (const handler of handlers().keys()) {
      const inputs = await loaded(handler);
      const has = inputs.some((i) => i.startsWith("@aws-sdk/client-cognito-identity-provider") || i.endsWith("shared/users.ts"));
      expect(has, handler).toBe(users.includes(handler));
    }
  });
});
