/** A transaction's items are named; a name given twice would silently drop an item, so it is an error. */
import { describe, expect, it } from "vitest";
import { transact } from "../../shared/tx.js";

describe("transact", () => {
  it("refuses two items with the same name before sending anything", async () => {
    const put = (id: string) => ({ Put: { TableName: "t", Item: { pk: id, sk: id } } });
    await expect(transact({ institution: put("a") }, { institution: put("b") })).rejects.toThrow(
      "Two transaction items are named institution",
    );
  });
});
