/**
 * A link's status as the link rules judge it. A module of its own, without the parser, so that
 * the API contract (and the CLI it is loaded by) can name it without loading remark.
 */
import { Schema } from "effect"

/** `ok`: nothing wrong (external URLs are not checked); `broken`: missing from the revision; `in-app`: an app URL. */
export const LinkStatus = Schema.Literals(["ok", "broken", "in-app"])
export type LinkStatus = typeof LinkStatus.Type
