import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One local stack for the whole run, shared by every file (see test/support/).
    // The console is built (when its sources changed) before the stack that serves it starts.
    globalSetup: ["test/browser/build-console.ts", "test/support/global-setup.ts"],
    setupFiles: ["test/support/setup-env.ts"],
    // Real services: cold starts of handler modules, Java, token issuing.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The last teardown synthesizes the stack for the IAM check (docs/iam.md).
    teardownTimeout: 180_000,
    // Processes, not threads: each file gets its own process.env and module state, as a Lambda would.
    pool: "forks",
    // Integration files mostly wait on I/O, so more files than cores is fine even on a 2-core CI box.
    maxWorkers: Math.max(2, Math.min(4, availableParallelism())),
  },
});
