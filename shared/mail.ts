/**
 * Outgoing mail through SES (the v2 API's SendEmail), as a module-scope singleton so warm invocations reuse
 * the connection. The endpoint is overridable for the local SES. Timeouts and retries are bounded: a mail
 * service that does not answer costs the caller a few seconds and a 502, never the whole Lambda timeout.
 *
 * Why not @aws-sdk/client-sesv2: for its one call here it added ~67 KiB (the schemas of all ~110 SES v2
 * operations, registered at load) to the two mail functions, 1.27x the DocumentClient-only bundle against a
 * 1.2x budget, and to their cold start (`npm run bench`, section 4). SendEmail is one SigV4-signed JSON
 * POST, so this module makes it with node:crypto and node:http(s) (the signer is checked against AWS's
 * documented example and the SDK's SignatureV4 in test/unit/mail.test.ts), signing with the credentials of
 * the DynamoDB client's provider chain (in Lambda, the function role's). What callers and tests rely on keeps
 * the SDK's shape: `ses.send(new SendEmailCommand(input))` through a real SDK middleware stack
 * (`ses.middlewareStack`, command name `SendEmailCommand`), errors with the SES error `name` and
 * `$metadata.httpStatusCode`.
 *
 * MAIL_FROM and APP_BASE_URL are read once here. Only the functions that send mail get them (see the
 * stack), so their absence is an error at send time, not at load time of every invitation handler.
 */
import { createHash, createHmac } from "node:crypto";
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { __Client, $Command, type GetItemCommandOutput } from "@aws-sdk/client-dynamodb";
import { dynamo } from "./clients.js";
import { config } from "./config.js";

export const mailConfig = {
  from: process.env.MAIL_FROM || undefined,
  /** Front-end origin for links in mail, without a trailing slash. */
  appBaseUrl: process.env.APP_BASE_URL?.replace(/\/+$/, "") || undefined,
} as const;

/** Two attempts; each must connect within 1 s and complete within 5 s (enforced: the request is destroyed). */
export const SES_RETRY_POLICY = { connectionTimeoutMs: 1_000, requestTimeoutMs: 5_000, maxAttempts: 2 } as const;

// --- the SES v2 SendEmail request ------------------------------------------------------------------

interface Content {
  Data: string;
  Charset?: string;
}

/** The subset of SES v2 `SendEmailRequest` this service sends (same field names, so the JSON is the API's). */
export interface SendEmailInput {
  FromEmailAddress: string;
  Destination: { ToAddresses: string[] };
  Content: { Simple: { Subject: Content; Body: { Text?: Content; Html?: Content } } };
}

/** The SDK's response metadata (`httpStatusCode`, `requestId`, `attempts`, ...). */
type ResponseMetadata = GetItemCommandOutput["$metadata"];

export interface SendEmailOutput {
  MessageId?: string;
  $metadata: ResponseMetadata;
}

/** A refusal by SES (`name` is its error type, e.g. `MessageRejected`) or a transport failure. */
export class SesError extends Error {
  constructor(
    name: string,
    message: string,
    readonly $metadata: ResponseMetadata,
    readonly $fault: "client" | "server",
  ) {
    super(message);
    this.name = name;
  }
}

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

const sha256Hex = (data: string) => createHash("sha256").update(data, "utf8").digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data, "utf8").digest();

/**
 * AWS Signature Version 4 of one request: the headers to send, `authorization` included. `path` and `query`
 * must already be in canonical form (URI-encoded; query keys sorted).
 */
export function signV4(
  req: { method: string; host: string; path: string; query?: string; headers: Record<string, string>; body: string },
  credentials: Credentials,
  region: string,
  service: string,
  now: Date,
): Record<string, string> {
  const amzDate = now.toISOString().replace(/[-:]|\.\d{3}/g, "");
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...req.headers,
    host: req.host,
    "x-amz-date": amzDate,
    ...(credentials.sessionToken && { "x-amz-security-token": credentials.sessionToken }),
  };
  const canonical = Object.entries(headers)
    .map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, " ")] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const signedHeaders = canonical.map(([k]) => k).join(";");
  const request = [
    req.method,
    req.path,
    req.query ?? "",
    canonical.map(([k, v]) => `${k}:${v}\n`).join(""),
    signedHeaders,
    sha256Hex(req.body),
  ].join("\n");
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(request)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), service), "aws4_request");
  const signature = createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

// --- transport -------------------------------------------------------------------------------------

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const timeoutError = (message: string) => new SesError("TimeoutError", message, {}, "server");

/** SES's `RequestHandler`: signs and POSTs SendEmail, with bounded timeouts and one retry of transient failures. */
class SesTransport {
  private readonly url: URL;
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;

  constructor(
    endpoint: string,
    private readonly region: string,
    private readonly credentials: () => Promise<Credentials>,
  ) {
    this.url = new URL("/v2/email/outbound-emails", endpoint);
    const plain = this.url.protocol === "http:";
    // Idle sockets are dropped after 4 s, before a server's usual 5 s idle timeout can close one under a request.
    const agent = { keepAlive: true, timeout: 4_000 };
    this.agent = plain ? new HttpAgent(agent) : new HttpsAgent(agent);
    this.send = plain ? httpRequest : httpsRequest;
  }

  async handle(input: SendEmailInput): Promise<{ response: SendEmailOutput }> {
    const body = JSON.stringify(input);
    for (let attempt = 1; ; attempt++) {
      try {
        const headers = signV4(
          { method: "POST", host: this.url.host, path: this.url.pathname, headers: { "content-type": "application/json" }, body },
          await this.credentials(),
          this.region,
          "ses",
          new Date(),
        );
        const reply = await this.post(headers, body);
        if (reply.status >= 200 && reply.status < 300) {
          const parsed = (reply.body ? JSON.parse(reply.body) : {}) as { MessageId?: string };
          return { response: { MessageId: parsed.MessageId, $metadata: this.responseMetadata(reply, attempt) } };
        }
        throw this.refusal(reply, attempt);
      } catch (err) {
        if (attempt >= SES_RETRY_POLICY.maxAttempts || !transient(err)) throw err;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  }

  destroy(): void {
    this.agent.destroy();
  }

  private responseMetadata(reply: Reply, attempts: number): ResponseMetadata {
    const requestId = reply.headers["x-amzn-requestid"];
    return { httpStatusCode: reply.status, attempts, ...(typeof requestId === "string" && { requestId }) };
  }

  private refusal(reply: Reply, attempts: number): SesError {
    let parsed: { __type?: string; code?: string; message?: string; Message?: string } = {};
    try {
      parsed = JSON.parse(reply.body) as typeof parsed;
    } catch {
      // not JSON: the status says enough
    }
    const header = reply.headers["x-amzn-errortype"];
    const type = (typeof header === "string" ? header : (parsed.__type ?? parsed.code ?? "")).split(/[:#]/).filter(Boolean).at(-1);
    const name = type || (reply.status >= 500 ? "ServiceUnavailable" : "SESv2ServiceException");
    const message = parsed.message ?? parsed.Message ?? `SES answered ${reply.status}`;
    return new SesError(name, message, this.responseMetadata(reply, attempts), reply.status >= 500 ? "server" : "client");
  }

  private post(headers: Record<string, string>, body: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      let connectTimer: NodeJS.Timeout | undefined;
      const req = this.send(this.url, {
        method: "POST",
        agent: this.agent,
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
      });
      const timer = setTimeout(
        () => req.destroy(timeoutError(`SES did not answer within ${SES_RETRY_POLICY.requestTimeoutMs} ms`)),
        SES_RETRY_POLICY.requestTimeoutMs,
      );
      const done = () => {
        clearTimeout(timer);
        clearTimeout(connectTimer);
      };
      req.on("socket", (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(
          () => req.destroy(timeoutError(`could not connect to SES within ${SES_RETRY_POLICY.connectionTimeoutMs} ms`)),
          SES_RETRY_POLICY.connectionTimeoutMs,
        );
        socket.once("connect", () => clearTimeout(connectTimer));
      });
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          done();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", (err) => {
          done();
          reject(err);
        });
      });
      req.on("error", (err) => {
        done();
        reject(err);
      });
      req.end(body);
    });
  }
}

/** Worth a second attempt: no answer (network, timeout), a server-side failure, or throttling. */
function transient(err: unknown): boolean {
  if (!(err instanceof SesError)) return true; // socket errors: ECONNREFUSED, ECONNRESET, EPIPE, ...
  const status = err.$metadata.httpStatusCode;
  return err.name === "TimeoutError" || status === undefined || status >= 500 || status === 429 || /Throttl|TooManyRequests/.test(err.name);
}

// --- the client: the SDK's client and command classes around the transport --------------------------

interface MailClientConfig {
  readonly apiVersion: string;
  readonly requestHandler: SesTransport;
}

/** SES v2 SendEmail; the SDK command's name, so middleware (request budgets, the benchmark) sees the same. */
export class SendEmailCommand extends $Command<SendEmailInput, SendEmailOutput, MailClientConfig, object, { $metadata: ResponseMetadata }> {
  constructor(readonly input: SendEmailInput) {
    super();
  }

  resolveMiddleware(clientStack: MailClient["middlewareStack"], configuration: MailClientConfig) {
    return clientStack
      .concat(this.middlewareStack)
      .resolve(async ({ input }) => ({ output: (await configuration.requestHandler.handle(input)).response, response: undefined }), {
        clientName: "SESv2Client",
        commandName: "SendEmailCommand",
      });
  }
}

// Typed as loosely as an SDK client's unions of inputs and outputs are, so that code handling several clients
// alike (`for (const c of [dynamo, ses]) c.middlewareStack.add(...)`) type-checks as it did with the SDK client.
class MailClient extends __Client<unknown, object, { $metadata: ResponseMetadata }, MailClientConfig> {}

const localCredentials = config.endpoints.ses
  ? { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? "local", secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? "local" }
  : undefined;

const sesEndpoint =
  config.endpoints.ses ?? `https://email.${config.region}.${config.region.startsWith("cn-") ? "amazonaws.com.cn" : "amazonaws.com"}`;

export const ses = new MailClient({
  apiVersion: "2019-09-27",
  requestHandler: new SesTransport(
    sesEndpoint,
    config.region,
    localCredentials ? async () => localCredentials : () => dynamo.config.credentials(),
  ),
});

// --- the mail --------------------------------------------------------------------------------------

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Throws unless the sender and the link base are configured; call before changing anything that needs a mail. */
export function requireMailConfig(): { from: string; appBaseUrl: string } {
  const { from, appBaseUrl } = mailConfig;
  if (!from || !appBaseUrl) throw new Error("MAIL_FROM and APP_BASE_URL must be set for functions that send mail");
  return { from, appBaseUrl };
}

/** Sends one plain-text + HTML mail; throws when SES refuses or cannot be reached. */
export async function sendMail(mail: Mail): Promise<void> {
  const { from } = requireMailConfig();
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: from,
      Destination: { ToAddresses: [mail.to] },
      Content: {
        Simple: {
          // A header cannot carry a line break; strip them so no input can add headers.
          Subject: { Data: mail.subject.replace(/[\r\n]+/g, " "), Charset: "UTF-8" },
          Body: { Text: { Data: mail.text, Charset: "UTF-8" }, Html: { Data: mail.html, Charset: "UTF-8" } },
        },
      },
    }),
  );
}
