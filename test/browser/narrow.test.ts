/**
 * The administrators and security events tables on a phone (390 px wide), as a first-time administrator met
 * them (issue 30): no cell clips its content, and no word breaks inside itself ("Enable|d", "Accepte|d"); the
 * table scrolls sideways instead. Checked in the page's own layout: every text node's words each lie on one
 * line (a word split over two lines has two client rects), and no cell's content is wider than the cell.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";
import { call, invitationTokenIn, sentMail, uniqEmail } from "../support/api.js";
import {
  consoleUrl,
  expectAccessibleOnPhone,
  heading,
  newAccount,
  newPerson,
  type Person,
  screenshot,
  seedInstitution,
  settled,
  useBrowser,
} from "./support.js";

const { browse } = useBrowser();

async function phone(as: Person): Promise<Page> {
  const page = await browse(as);
  await page.setViewportSize({ width: 390, height: 844 });
  return page;
}

/** Words split across lines and cells whose content overflows them, in a table as it is laid out now. */
async function layoutProblems(table: Locator, freeText: number[] = []): Promise<{ brokenWords: string[]; clipped: string[] }> {
  return table.evaluate((root, freeText) => {
    type El = {
      querySelectorAll(s: string): ArrayLike<El>;
      scrollWidth: number;
      clientWidth: number;
      textContent: string | null;
      cellIndex?: number;
    };
    type Doc = {
      createTreeWalker(root: unknown, what: number): { nextNode(): { textContent: string | null } | null };
      createRange(): { setStart(n: unknown, o: number): void; setEnd(n: unknown, o: number): void; getClientRects(): ArrayLike<unknown> };
    };
    const doc = (globalThis as unknown as { document: Doc }).document;
    const brokenWords: string[] = [];
    const clipped: string[] = [];
    const cells = (root as unknown as El).querySelectorAll("tbody td, tbody th, thead th");
    for (let c = 0; c < cells.length; c++) {
      const cell = cells[c] as El;
      if (cell.scrollWidth > cell.clientWidth + 1) clipped.push((cell.textContent ?? "").trim().slice(0, 60));
      // A free-text column (an event's description) wraps as text does; a long address in it may break.
      if (freeText.includes(cell.cellIndex ?? -1)) continue;
      const walker = doc.createTreeWalker(cell, 4);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const m of text.matchAll(/\S+/g)) {
          const range = doc.createRange();
          range.setStart(node, m.index ?? 0);
          range.setEnd(node, (m.index ?? 0) + m[0].length);
          if (range.getClientRects().length > 1) brokenWords.push(m[0]);
        }
      }
    }
    return { brokenWords, clipped };
  }, freeText);
}

describe("the tables at 390 px", () => {
  it("administrators and security events: no clipped cell, no word broken inside itself", async () => {
    const { domain, owner } = await newAccount("narrow");
    const inst = await seedInstitution(owner.token);
    // A second administrator (accepted) and a pending invitation, so the statuses show.
    const sam = await newPerson("sam", domain);
    const invite = async (email: string) => {
      const res = await call("POST", paths.invitations, {
        token: owner.token,
        body: { institution_id: inst.id, email, role: "cohort_admin" },
      });
      expect(res.status, res.text).toBe(201);
      const mail = (await sentMail(email)).at(-1);
      if (!mail) throw new Error(`no mail to ${email}`);
      return invitationTokenIn(mail);
    };
    const accepted = await call("POST", paths.invitationsAccept, { token: sam.token, body: { token: await invite(sam.email) } });
    expect(accepted.status, accepted.text).toBe(200);
    await invite(uniqEmail("pending", domain));

    const page = await phone(owner);
    await page.goto(consoleUrl(`/institutions/${inst.id}?tab=invitations`));
    const admins = page.getByTestId("administrators-table");
    await settled(admins);
    await expect.poll(async () => await admins.locator("tbody tr").count()).toBe(2);
    await screenshot(page, "40-administrators-390");
    expect(await layoutProblems(admins)).toEqual({ brokenWords: [], clipped: [] });
    const invitations = page.getByTestId("invitations-table");
    if ((await invitations.count()) > 0) {
      await settled(invitations);
      expect(await layoutProblems(invitations)).toEqual({ brokenWords: [], clipped: [] });
    }
    await expectAccessibleOnPhone(page, "administrators at 390 px");

    await page.goto(consoleUrl("/security-events"));
    await heading(page, "Security events");
    const events = page.getByTestId("events-table");
    await settled(events);
    await screenshot(page, "41-security-events-390");
    // Its last column is the description: free text, which wraps (and is still never clipped).
    const columns = await events.locator("thead th").count();
    expect(await layoutProblems(events, [columns - 1])).toEqual({ brokenWords: [], clipped: [] });
    await expectAccessibleOnPhone(page, "security events at 390 px");
  });
});
