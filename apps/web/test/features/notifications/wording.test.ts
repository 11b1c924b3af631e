import { describe, expect, it } from "vitest"
import type { Notification } from "@quire/api"
import { describeNotification } from "../../../src/features/notifications/wording.ts"

const base: Notification = {
  object: "notification",
  id: "n1",
  kind: "review_requested",
  createdAt: "2026-11-23T10:00:00.000Z",
  read: false,
  actor: { object: "user", id: "u1", displayName: "Rita", urls: { location: "" } },
  space: "s1",
  changeRequest: { id: "cr1", number: 4, subject: "Reword beta" },
  urls: { app: "/s/s1/~/changes/4/~/review", location: "" }
}

describe("describeNotification", () => {
  it("says what happened, who did it and to what", () => {
    expect(describeNotification(base)).toBe("Rita asked you to review “Reword beta”")
    expect(describeNotification({ ...base, kind: "change_request_merged" })).toBe("Rita merged “Reword beta”")
    expect(describeNotification({ ...base, kind: "comment_reply", comment: "c1", reply: "r1" })).toBe("Rita replied to a comment on “Reword beta”")
    expect(describeNotification({ ...base, kind: "mention", comment: "c1" })).toBe("Rita mentioned you in a comment on “Reword beta”")
    expect(describeNotification({ ...base, kind: "mention", comment: "c1", reply: "r1" })).toBe("Rita mentioned you in a reply on “Reword beta”")
  })

  it("names an untitled change request by its number, and a space's page by the space", () => {
    expect(describeNotification({ ...base, changeRequest: { id: "cr1", number: 4, subject: " " } })).toBe("Rita asked you to review change request #4")
    const { changeRequest: _, ...onPage } = base
    expect(describeNotification({ ...onPage, kind: "mention", comment: "c1" }, "Handbook")).toBe("Rita mentioned you in a comment on a page of Handbook")
    expect(describeNotification({ ...onPage, kind: "comment_reply", comment: "c1" })).toBe("Rita replied to a comment on a page")
  })
})
