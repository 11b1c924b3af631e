/** What the domain says about a link of a page. */
import { Schema } from "effect"

/** `ok`: nothing wrong (external URLs are not checked); `broken`: missing from the revision; `in-app`: an app URL. */
export const LinkStatus = Schema.Literals(["ok", "broken", "in-app"])
export type LinkStatus = typeof LinkStatus.Type
