import { describe, expect, it } from "vitest";
import { checkAttendees, holderNames, seatLabels } from "./attendees";

describe("attendee names per seat", () => {
  it("labels each seat of each ticket line in posting order", () => {
    expect(
      seatLabels([
        { name: "Sip & Style", seats: 2 },
        { name: "Workshop", seats: 1 },
      ]),
    ).toEqual(["Seat 1 of 2: Sip & Style", "Seat 2 of 2: Sip & Style", "Seat 1 of 1: Workshop"]);
  });

  it("takes a name per seat, trimmed; fields beyond the seats are ignored, missing ones are empty", () => {
    expect(checkAttendees(["  Naledi  ", "", "Extra"], 2)).toEqual({ ok: true, names: ["Naledi", ""] });
    expect(checkAttendees([], 2)).toEqual({ ok: true, names: ["", ""] });
  });

  it("refuses a name too long or with control characters, saying which seat and why", () => {
    const labels = seatLabels([{ name: "Sip & Style", seats: 3 }]);
    const checked = checkAttendees(["Naledi", "x".repeat(101), "Line\nbreak"], 3, labels);
    expect(checked).toMatchObject({
      ok: false,
      errors: [
        null,
        "A name must be at most 100 characters.",
        "A name cannot contain line breaks or control characters.",
      ],
      message: "Seat 2 of 3: Sip & Style: A name must be at most 100 characters.",
    });
    expect(checkAttendees(["x".repeat(100)], 1).ok).toBe(true);
    expect(checkAttendees(["\u0000"], 1).ok).toBe(false);
  });

  it("an empty seat carries the buyer's name", () => {
    expect(holderNames(["Naledi", " "], "Thandi Mokoena")).toEqual(["Naledi", "Thandi Mokoena"]);
  });
});
