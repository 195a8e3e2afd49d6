import { describe, expect, it } from "vitest";
import { memberActionSchema } from "~/memberships/gift-schema";
import { orderActionSchema } from "~/orders/refund-schema";
import { doorFormSchema, FORM_DEVICE } from "~/tickets/door-form";
import { checkboxFields, textFields, validateForm } from "~/lib/form";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe("reading a form", () => {
  it("gives a missing text field as empty and a checkbox as ticked only when it posts on", () => {
    const posted = form([
      ["note", "hi"],
      ["restock", "on"],
      ["visible", "yes"],
    ]);
    expect(textFields(posted, ["note", "intent"])).toEqual({ note: "hi", intent: "" });
    expect(checkboxFields(posted, ["restock", "visible", "markNew"])).toEqual({
      restock: true,
      visible: false,
      markNew: false,
    });
  });

  it("answers an unknown intent on the order and member pages with the page's own message", () => {
    for (const schema of [orderActionSchema, memberActionSchema]) {
      const checked = validateForm(schema, { intent: "explode" });
      expect(checked.ok ? null : checked.fieldErrors.intent).toBe("Choose an action.");
    }
  });

  it("refuses a refund without the page's key before reading its amount, and an overlong note", () => {
    const refund = validateForm(orderActionSchema, { intent: "refund", key: "x", amount: "", restock: false });
    expect(refund.ok ? null : refund.fieldErrors.key).toBe("Please reload the page and try again.");
    const note = validateForm(orderActionSchema, { intent: "note", note: "a".repeat(2001) });
    expect(note.ok ? null : note.fieldErrors.note).toBe("A note can be at most 2,000 characters.");
    const kept = validateForm(orderActionSchema, { intent: "note", note: "  Posted Tuesday  " });
    expect(kept.ok && kept.data.intent === "note" ? kept.data.note : null).toBe("Posted Tuesday");
  });

  it("tidies the door's form as typed without refusing it", () => {
    const checked = validateForm(doorFormSchema, {
      intent: "",
      deviceId: "<bad>",
      code: `  ${"A".repeat(400)}`,
      eventId: "",
    });
    expect(checked.ok && checked.data).toEqual({
      intent: "scan",
      deviceId: "bad",
      code: "A".repeat(298),
      eventId: undefined,
    });
    const undo = validateForm(doorFormSchema, { intent: "undo", deviceId: "***", code: "", eventId: "e1" });
    expect(undo.ok && undo.data).toEqual({ intent: "undo", deviceId: FORM_DEVICE, code: "", eventId: "e1" });
  });
});
