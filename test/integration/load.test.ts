/**
 * A short version of `npm run load` inside the test suite: 5 s of mixed reads and writes from 4 users in
 * 2 accounts on the run's shared stack (bench/load/run.ts), then the count. Throughput is not asserted here
 * (the other files load the same machine); correctness is: only expected statuses, no connection errors,
 * every accepted write stored with its event and nothing else.
 */
import { expect, it } from "vitest";
import { formatReport, runLoad } from "../../bench/load/run.js";
import { stack, token, uniq, uniqEmail } from "../support/api.js";
import { claimsOf } from "./helpers.js";

it("5 s of mixed load: only expected statuses, and every accepted write is stored with its event", async () => {
  const users = [];
  for (let a = 0; a < 2; a++) {
    const account = uniq("load");
    for (let u = 0; u < 2; u++) {
      const tok = await token(uniqEmail(`load${a}${u}`), { superAdmin: true, account });
      users.push({ token: tok, userId: String(claimsOf(tok).sub), accountId: account });
    }
  }
  const opts = { apiUrl: stack.apiUrl, users, seconds: 5, connections: 4, tag: uniq("t") };
  const report = await runLoad(opts);
  console.log(formatReport(report, opts));
  expect(report.failures).toEqual([]);
  expect(report.counts.creates).toBeGreaterThan(0);
});
