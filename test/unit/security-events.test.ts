/** Pure parts of the security-event endpoints: query schemas, cursor, CSV, alert window, index mapping. */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { newId } from "../../shared/ids.js";

vi.hoisted(() => {
  process.env.MAIN_TABLE ??= "main";
  process.env.EVENTS_TABLE ??= "events";
});

import { decodeCursor, encodeCursor, PAGING_ERRORS, parseQuery } from "../../shared/paging.js";
import { ALERT_RULES, alertsFor, emptySummary, minuteOf, planWindow } from "../../shared/security-events/alerts.js";
import { CSV_HEADER, csvCell, eventLine, exportFilename } from "../../shared/security-events/csv.js";
import { queryFor } from "../../shared/security-events/repository.js";
import { exportQuery, listQuery, parseIso, QUERY_ERRORS } from "../../shared/security-events/schema.js";

const messages = { ...PAGING_ERRORS, ...QUERY_ERRORS };

const ID = "01JABCDEFGHJKMNPQRSTVWXYZ0";

describe("list query", () => {
  const parse = (q: Record<string, string | undefined>) => parseQuery(listQuery, q);
  const error = (q: Record<string, string | undefined>) => {
    try {
      parse(q);
    } catch (e) {
      return { status: (e as { status: number }).status, message: (e as Error).message };
    }
    return undefined;
  };

  it("defaults: limit 50, no filters; blank values count as absent; unknown keys ignored", () => {
    expect(parse({})).toEqual({ limit: 50 });
    expect(parse({ user_id: "", event_type: " ", from: "", to: "", limit: "", cursor: "", other: "x" })).toMatchObject({
      limit: 50,
      user_id: undefined,
      event_type: undefined,
      from: undefined,
      to: undefined,
      cursor: undefined,
    });
  });

  it("keeps equality filters as sent", () => {
    expect(parse({ user_id: "u-1", event_type: "institution_created" })).toMatchObject({
      user_id: "u-1",
      event_type: "institution_created",
    });
  });

  it.each(["1", "50", "200", "007"])("accepts limit %s", (limit) => {
    expect(parse({ limit }).limit).toBe(Number(limit));
  });

  it.each(["0", "201", "-1", "1.5", "abc", "1e2", "5,6", "99999999999999999999"])("refuses limit %s with 400", (limit) => {
    expect(error({ limit })).toEqual({ status: 400, message: messages.limit });
  });

  it("normalizes from/to to the stored form (UTC, milliseconds)", () => {
    expect(parse({ from: "2024-03-01T10:00:00Z", to: "2024-03-01T12:00:00+02:00" })).toMatchObject({
      from: "2024-03-01T10:00:00.000Z",
      to: "2024-03-01T10:00:00.000Z",
    });
    expect(parse({ from: "2024-03-01" }).from).toBe("2024-03-01T00:00:00.000Z");
    expect(parse({ from: "2024-03-01T10:00:00.123Z" }).from).toBe("2024-03-01T10:00:00.123Z");
    // An unencoded + decoded as a space.
    expect(parse({ to: "2024-03-01T12:00:00 02:00" }).to).toBe("2024-03-01T10:00:00.000Z");
  });

  it("rounds sub-millisecond bounds inward, so inclusive bounds never widen", () => {
    expect(parse({ from: "2024-03-01T10:00:00.1231Z" }).from).toBe("2024-03-01T10:00:00.124Z");
    expect(parse({ to: "2024-03-01T10:00:00.1239Z" }).to).toBe("2024-03-01T10:00:00.123Z");
    expect(parse({ from: "2024-03-01T10:00:00.1230000Z" }).from).toBe("2024-03-01T10:00:00.123Z");
  });

  it.each(["yesterday", "2024-02-30T00:00:00Z", "2024-13-01", "2024-03-01T25:00:00Z", "1700000000", "2024-3-1", "0050-01-01"])(
    "refuses from/to %s with 400",
    (value) => {
      expect(error({ from: value })).toEqual({ status: 400, message: messages.from });
      expect(error({ to: value })).toEqual({ status: 400, message: messages.to });
    },
  );

  it("refuses from after to; accepts from equal to to", () => {
    expect(error({ from: "2024-03-02T00:00:00Z", to: "2024-03-01T00:00:00Z" })).toEqual({ status: 400, message: messages.range });
    expect(parse({ from: "2024-03-01T00:00:00Z", to: "2024-03-01T00:00:00.000Z" })).toMatchObject({ from: "2024-03-01T00:00:00.000Z" });
  });
});

describe("export query", () => {
  it("splits event_type on commas, trims, drops blanks and duplicates", () => {
    expect(parseQuery(exportQuery, { event_type: "a, b,,a ," }).event_types).toEqual(["a", "b"]);
    expect(parseQuery(exportQuery, { event_type: " , " }).event_types).toBeUndefined();
    expect(parseQuery(exportQuery, {}).event_types).toBeUndefined();
  });

  it("validates from/to like the list", () => {
    expect(() => parseQuery(exportQuery, { from: "nope" })).toThrow(messages.from);
    expect(() => parseQuery(exportQuery, { from: "2024-03-02", to: "2024-03-01" })).toThrow(messages.range);
  });
});

describe("parseIso", () => {
  it("applies offsets both ways and accepts a comma fraction", () => {
    expect(parseIso("2024-01-01T00:00:00-05:30", "down")).toBe(Date.UTC(2024, 0, 1, 5, 30));
    expect(parseIso("2024-01-01T00:00:00+0100", "down")).toBe(Date.UTC(2023, 11, 31, 23));
    expect(parseIso("2024-01-01T00:00:00,5Z", "down")).toBe(Date.UTC(2024, 0, 1, 0, 0, 0, 500));
    expect(parseIso("2024-02-29T23:59", "down")).toBe(Date.UTC(2024, 1, 29, 23, 59));
    expect(parseIso("2023-02-29", "down")).toBeUndefined();
  });
});

describe("cursor", () => {
  const position = `2024-05-01T10:00:00.000Z#${ID}`;

  it("is the encoded position, and decodes to it and its instant", () => {
    const cursor = encodeCursor(position);
    expect(Buffer.from(cursor, "base64url").toString()).toBe(position);
    expect(decodeCursor(cursor)).toEqual({ position, at: "2024-05-01T10:00:00.000Z" });
  });

  it("refuses anything that is not an encoded position", () => {
    for (const bad of [
      "",
      "....",
      "%%%",
      "x".repeat(300),
      encodeCursor("not-a-key"),
      encodeCursor(`2024-05-01T10:00:00.000Z#${ID.toLowerCase()}`),
      encodeCursor(`2024-05-01T10:00:00Z#${ID}`),
      encodeCursor(`${position}#x`),
    ]) {
      expect(() => decodeCursor(bad), bad).toThrow(messages.cursor);
    }
  });
});

describe("csv", () => {
  it("has the contract's header row and CRLF line ends", () => {
    expect(CSV_HEADER).toBe("id,event_type,created_at,user_id,user_email,ip_address,description,details\r\n");
  });

  it("quotes cells with comma, quote, CR or LF, doubling quotes (RFC 4180)", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line1\nline2")).toBe('"line1\nline2"');
    expect(csvCell("a\r\nb")).toBe('"a\r\nb"');
    expect(csvCell(null)).toBe("");
    expect(csvCell("")).toBe("");
  });

  it.each(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])("guards %j against formula injection", (value) => {
    expect(csvCell(value).replace(/^"/, "").startsWith("'")).toBe(true);
  });

  it("guards before quoting", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell("\rx")).toBe(`"'\rx"`);
    expect(csvCell("a=1")).toBe("a=1");
  });

  it("writes an event in column order with details as JSON text, keys sorted", () => {
    const line = eventLine({
      id: ID,
      event_type: "institution_created",
      created_at: "2024-05-01T10:00:00.000Z",
      user_id: null,
      user_email: null,
      ip_address: "10.0.0.1",
      description: "x created institution 'A, B'",
      details: { name: "A, B", n: 1, nested: { z: 1, a: [{ b: 1, a: 2 }] } },
    });
    expect(line).toBe(
      `${ID},institution_created,2024-05-01T10:00:00.000Z,,,10.0.0.1,"x created institution 'A, B'","{""n"":1,""name"":""A, B"",""nested"":{""a"":[{""a"":2,""b"":1}],""z"":1}}"\r\n`,
    );
  });

  it("never lets a cell end its line or add a column (random strings)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", ",", '"', "a") }), (value) => {
        const cell = csvCell(value);
        // Unquoted cells hold no separator; quoted ones hold no lone quote.
        if (!cell.startsWith('"')) expect(cell).not.toMatch(/[",\r\n]/);
        else expect(cell.slice(1, -1).replaceAll('""', "")).not.toContain('"');
        expect(/^[=+\-@\t\r]/.test(cell.replace(/^"/, ""))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("names the file after the UTC time", () => {
    expect(exportFilename(new Date("2024-05-01T09:08:07.654Z"))).toBe("security_events_20240501_090807.csv");
  });
});

describe("alert window", () => {
  it("needs no raw events when the window starts on a minute", () => {
    const plan = planWindow(new Date("2024-05-01T10:15:00.000Z"));
    expect(plan).toEqual({
      from: "2024-05-01T09:15:00.000Z",
      to: "2024-05-01T10:15:00.000Z",
      firstMinute: "2024-05-01T09:15",
      lastMinute: "2024-05-01T10:15",
    });
  });

  it("early in a minute: subtracts the events before from", () => {
    const plan = planWindow(new Date("2024-05-01T10:15:20.500Z"));
    expect(plan.firstMinute).toBe("2024-05-01T09:15");
    expect(plan.edge).toEqual({ sign: -1, from: "2024-05-01T09:15:00.000Z", to: "2024-05-01T09:15:20.499Z" });
  });

  it("late in a minute: adds the events from from to the minute's end", () => {
    const plan = planWindow(new Date("2024-05-01T10:15:45.000Z"));
    expect(plan.firstMinute).toBe("2024-05-01T09:15");
    expect(plan.edge).toEqual({ sign: 1, from: "2024-05-01T09:15:45.000Z", to: "2024-05-01T09:15:59.999Z" });
  });

  it("never reads more than half a minute of raw events", () => {
    for (let ms = 0; ms < 60_000; ms += 997) {
      const { edge } = planWindow(new Date(Date.UTC(2024, 4, 1, 10, 15, 0, ms)));
      if (edge) expect(Date.parse(edge.to) - Date.parse(edge.from)).toBeLessThan(30_000);
    }
  });

  it("minute keys are the counters' sort keys", () => {
    expect(minuteOf(Date.UTC(2024, 4, 1, 10, 15, 59, 999))).toBe("2024-05-01T10:15");
  });

  it("alerts appear exactly at their thresholds", () => {
    expect(alertsFor(emptySummary())).toEqual([]);
    const below = { unauthorized_institution_access: 4, rate_limit_exceeded: 9, token_validation_failure: 19 };
    expect(alertsFor(below)).toEqual([]);
    const at = { unauthorized_institution_access: 5, rate_limit_exceeded: 10, token_validation_failure: 20 };
    expect(alertsFor(at)).toEqual([
      { type: "unauthorized_access", severity: "high", count: 5 },
      { type: "rate_limit", severity: "medium", count: 10 },
      { type: "token_failures", severity: "high", count: 20 },
    ]);
    expect(ALERT_RULES.map((r) => r.threshold)).toEqual([5, 10, 20]);
  });
});

describe("index and key condition per filter", () => {
  const from = "2024-01-01T00:00:00.000Z";
  const to = "2024-02-01T00:00:00.000Z";

  it.each([
    [{}, undefined, "pk", "EVT#A"],
    [{ userId: "u" }, "by_user", "g_user", "A#u"],
    [{ type: "t" }, "by_type", "g_type", "A#t"],
  ])("%o → %s", (filters, index, attr, partition) => {
    const q = queryFor({ account: "A", ...filters });
    expect(q).toMatchObject({
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": attr },
      ExpressionAttributeValues: { ":p": partition },
      ScanIndexForward: false,
    });
    expect(q.IndexName).toBe(index);
    expect(q).not.toHaveProperty("FilterExpression");
  });

  it("user and type: the user's partition, keeping the type", () => {
    expect(queryFor({ account: "A", userId: "u", type: "t" })).toMatchObject({
      IndexName: "by_user",
      KeyConditionExpression: "#p = :p",
      FilterExpression: "#type = :type",
      ExpressionAttributeValues: { ":p": "A#u", ":type": "t" },
    });
  });

  it("bounds become an inclusive key condition on the id (a ULID: its time first)", () => {
    const q = queryFor({ account: "A", from, to });
    expect(q).toMatchObject({ KeyConditionExpression: "#p = :p AND #id BETWEEN :lo AND :hi", ExpressionAttributeNames: { "#id": "sk" } });
    expect(queryFor({ account: "A", from }).KeyConditionExpression).toBe("#p = :p AND #id >= :lo");
    expect(queryFor({ account: "A", to }).KeyConditionExpression).toBe("#p = :p AND #id <= :hi");
    const { ":lo": lo = "", ":hi": hi = "" } = q.ExpressionAttributeValues as Record<string, string>;
    // An event at exactly `to` sorts inside the upper bound, one at exactly `from` inside the lower; a
    // millisecond outside either is outside.
    for (const inside of [Date.parse(from), Date.parse(to)]) {
      const id = newId(inside);
      expect(id >= lo && id <= hi).toBe(true);
    }
    expect(newId(Date.parse(from) - 1) < lo).toBe(true);
    expect(newId(Date.parse(to) + 1) > hi).toBe(true);
  });
});
