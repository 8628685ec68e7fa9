/**
 * The user pool's functions on this machine: Lambda's Invoke API (`POST /2015-03-31/functions/<name>/invocations`)
 * served from the gateway's process, which has the functions' environment. cognito-local invokes its triggers
 * here (its `LambdaClient` points at this endpoint, infra/local/cognito.ts), and its stand-in sends the
 * user-activity records here as the export's log subscription would (cognito-local.mjs). Each name runs the
 * same module the stack deploys (shared/pool-triggers.ts), as that function (function-scope.ts: the test run's
 * IAM check judges its AWS requests against that function's role).
 *
 * One addition is the local stack's own: after the deployed PreTokenGeneration (functions/sso/pre-token-generation.ts)
 * answers, the `name` claim is added to the ID token, because cognito-local's ID tokens carry no standard attribute
 * but the e-mail, where Cognito's carry `name` itself. In AWS the deployed function alone answers.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PreTokenGenerationTriggerEvent } from "aws-lambda";
import { localFunctionName, POOL_HANDLERS, POOL_TRIGGERS } from "../../shared/pool-triggers.js";
import { asFunction } from "./function-scope.js";
import { loadHandler } from "./handlers.js";
import { lambdaContext } from "./lambda-context.js";

/** Cognito waits 5 seconds for a trigger; a little more here, for a loaded machine. */
const TIMEOUT_MS = 15_000;

type Handler = (event: unknown, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;

/** The handler of each local function name. */
const HANDLER_OF = new Map(POOL_HANDLERS.map((handler) => [localFunctionName(handler), handler]));

/**
 * Local only: the ID token's `name`, which Cognito's tokens carry and cognito-local's lack, added to what the
 * deployed PreTokenGeneration answered (a claim it set itself stays as it set it).
 */
function withName(answer: unknown, event: PreTokenGenerationTriggerEvent): unknown {
  const name = event.request?.userAttributes?.name;
  if (!name || !answer || typeof answer !== "object") return answer;
  const out = answer as PreTokenGenerationTriggerEvent;
  const details = out.response?.claimsOverrideDetails ?? {};
  const claims = { name, ...details.claimsToAddOrOverride };
  return { ...out, response: { ...out.response, claimsOverrideDetails: { ...details, claimsToAddOrOverride: claims } } };
}

/** Runs the function `name` with `event`, as Lambda would; rejects with its error. */
export async function invoke(name: string, event: unknown, region: string): Promise<unknown> {
  const handler = HANDLER_OF.get(name);
  if (!handler) throw Object.assign(new Error(`Function not found: ${name}`), { notFound: true });
  const fn = await loadHandler<Handler>(handler);
  const deadline = Date.now() + TIMEOUT_MS;
  const answer = await asFunction(handler, () => fn(event, lambdaContext(handler, region, deadline)));
  return handler === POOL_TRIGGERS.PreTokenGeneration ? withName(answer, event as PreTokenGenerationTriggerEvent) : answer;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export interface LambdaEndpoint {
  readonly endpoint: string;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Serves the pool's functions on 127.0.0.1:`port`. `RequestResponse` answers with the function's result (an error
 * as Lambda reports one: 200, `X-Amz-Function-Error: Unhandled`, `{errorMessage, errorType}`); `Event` answers
 * 202 at once and runs it after, as an asynchronous invocation.
 */
export async function startLambdaEndpoint(port: number, region: string, log: (line: string) => void): Promise<LambdaEndpoint> {
  const server = createServer((req, res) => {
    void (async () => {
      const m = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec((req.url ?? "").split("?")[0] ?? "");
      if (req.method !== "POST" || !m?.[1]) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ Message: "Not found" }));
        return;
      }
      const name = decodeURIComponent(m[1]);
      const text = await body(req);
      const asynchronous = req.headers["x-amz-invocation-type"] === "Event";
      const run = async () => invoke(name, text ? JSON.parse(text) : {}, region);
      if (asynchronous) {
        res.writeHead(202).end();
        run().catch((err: unknown) => log(`[lambda] ${name} (async) failed: ${(err as Error).stack ?? err}`));
        return;
      }
      try {
        const result = await run();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result ?? null));
      } catch (err) {
        if ((err as { notFound?: boolean }).notFound) {
          res.writeHead(404, { "content-type": "application/json", "x-amzn-errortype": "ResourceNotFoundException" });
          res.end(JSON.stringify({ Type: "User", Message: (err as Error).message }));
          return;
        }
        log(`[lambda] ${name} failed: ${(err as Error).stack ?? err}`);
        res.writeHead(200, { "content-type": "application/json", "x-amz-function-error": "Unhandled" });
        res.end(JSON.stringify({ errorMessage: (err as Error).message, errorType: (err as Error).name }));
      }
    })().catch((err: unknown) => {
      log(`[lambda] ${req.url}: ${(err as Error).stack ?? err}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
