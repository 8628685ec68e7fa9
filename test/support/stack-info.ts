/** What global-setup.ts hands to every test worker (`inject("stack")`). */
import type { StackInfo } from "../../infra/local/stack.js";

export interface TestStackInfo extends StackInfo {
  /** The global-setup process's control server (127.0.0.1 only): service stop/start and the file lock. */
  readonly controlUrl: string;
  /** Logs of this run's services and gateway (handler errors land in `gateway.log`). */
  readonly logDir: string;
  /** Where every process of the run records the AWS requests its functions make (docs/iam.md). */
  readonly awsRequestLog: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    stack: TestStackInfo;
  }
}
