#!/usr/bin/env node
/**
 * Watchdog wrapper: `node supervise.mjs <command> [args...]`.
 *
 * services.ts spawns every local service through this file, as the leader of a new process group, with its
 * stdin a pipe from the Node parent. When the parent dies for any reason, kill -9 included, the kernel closes
 * that pipe; we see EOF and take the whole group down (the service and anything it started), so no Java
 * keeps holding a port. Linux has no portable "die with my parent" for Node, hence the pipe.
 *
 * Lines on stdin are commands: `pause` / `resume` stop and continue the service itself (not this wrapper,
 * which must stay able to notice the parent's death); each is acknowledged with `paused` / `resumed` on fd 3.
 */
import { spawn } from "node:child_process";
import { writeSync } from "node:fs";
import { createInterface } from "node:readline";

const GRACE_MS = 3000;
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: supervise.mjs <command> [args...]");
  process.exit(2);
}

// Same process group as this wrapper (no `detached`), so one group kill reaches both.
const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });

function killGroup(signal) {
  try {
    process.kill(-process.pid, signal);
  } catch {
    // group already gone
  }
}

let shuttingDown = false;
function shutdown() {
  if (shuttingDown) return;
  shuttingDown = true;
  try {
    child.kill("SIGCONT"); // a paused service cannot act on SIGTERM
  } catch {}
  child.kill("SIGTERM");
  // Unref'd: if the service exits in time, we exit with it; otherwise nothing survives this.
  setTimeout(() => killGroup("SIGKILL"), GRACE_MS).unref();
}

const commands = createInterface({ input: process.stdin });
commands.on("line", (line) => {
  const cmd = line.trim();
  if (cmd !== "pause" && cmd !== "resume") return;
  child.kill(cmd === "pause" ? "SIGSTOP" : "SIGCONT");
  try {
    writeSync(3, `${cmd}d\n`);
  } catch {
    // no acknowledgement channel (not started by services.ts)
  }
});
// EOF: the parent closed the pipe or died.
commands.on("close", shutdown);

// A group SIGTERM from the parent also reaches the service; wait for it instead of dying first.
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
process.on("SIGHUP", shutdown);

child.on("error", (err) => {
  console.error(`supervise: cannot start ${command}: ${err.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  // When stopping, sweep whatever the service left in the group (this kills us too); when the service died
  // on its own, exit with its status so the parent can report it.
  if (shuttingDown) killGroup("SIGKILL");
  process.exit(code ?? (signal ? 128 : 1));
});
