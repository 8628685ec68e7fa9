/**
 * The idempotency middleware costs nothing to a function without a POST route: the stack's per-function
 * `define` (bundlingDefine of infra/stack.ts) lets esbuild drop it, and Powertools' idempotency utility with
 * it, from that bundle; every function with a POST route has it, behind a dynamic import (evaluated when a request
 * carries an Idempotency-Key).
 */
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { bundlingDefine, ESBUILD_TARGET } from "../../infra/api-function.js";
import { ROOT } from "../../infra/local/services.js";
import { handlers, routes, takesIdempotencyKey } from "../../shared/routes.js";

// A SCIM client knows no Idempotency-Key (docs/scim.md): the SCIM service's POSTs take none.
const hasPost = (handler: string) => routes.some((r) => r.handler === handler && takesIdempotencyKey(r));

/** What one function's bundle loads: its own modules and the packages it imports; and how http.ts reaches idempotency.ts. */
async function loaded(handler: string): Promise<{ inputs: string[]; kinds: string[] }> {
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
  const inputs = Object.values(metafile.outputs).flatMap((o) => [...Object.keys(o.inputs), ...o.imports.map((i) => i.path)]);
  const kinds = (metafile.inputs["shared/http.ts"]?.imports ?? []).filter((i) => i.path === "shared/idempotency.ts").map((i) => i.kind);
  return { inputs, kinds };
}

describe("the idempotency middleware in the bundles", () => {
  it("is in every function with a POST route, and in no other", async () => {
    const names = [...handlers().keys()];
    expect(names.filter(hasPost).length).toBeGreaterThanOrEqual(5);
    for (const handler of names) {
      const { inputs, kinds } = await loaded(handler);
      const has = inputs.some((i) => i.endsWith("shared/idempotency.ts") || i.startsWith("@aws-lambda-powertools/idempotency"));
      expect(has, handler).toBe(hasPost(handler));
      // Where it is, it is evaluated on the first request with an Idempotency-Key, not at import.
      expect(kinds, handler).toEqual(hasPost(handler) ? ["dynamic-import"] : []);
    }
  });

  it("leaves the test run's AWS request recorder out of every bundle", async () => {
    for (const handler of [...handlers().keys()].slice(0, 4)) {
      const { inputs } = await loaded(handler);
      expect(
        inputs.some((i) => i.endsWith("shared/clients.ts")),
        handler,
      ).toBe(true);
      expect(
        inputs.filter((i) => i.includes("infra/local/")),
        handler,
      ).toEqual([]);
    }
  });
});

describe("the Cognito client in the bundles", () => {
  it("is only in the functions that use the user pool (route access `users`: transfer, open, register, the SCIM service, the SSO connection, the institution's deletion and the caller's own MFA and sign-out)", async () => {
    const users = [...handlers()].filter(([, a]) => a.users).map(([h]) => h);
    expect(users.sort()).toEqual([
      "administrators/transfer",
      "institutions/delete",
      "invitations/open",
      "invitations/register",
      "me/mfa",
      "me/sign-out-everywhere",
      "scim/service",
      "sso/connection",
    ]);
    for (const handler of handlers().keys()) {
      const { inputs } = await loaded(handler);
      const has = inputs.some((i) => i.startsWith("@aws-sdk/client-cognito-identity-provider") || i.endsWith("shared/users.ts"));
      expect(has, handler).toBe(users.includes(handler));
    }
  });
});
