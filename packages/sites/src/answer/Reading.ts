/** One request as the answering modules read it: who reads, what they see, the URL scheme and the revisions they show. */
import type { ParseCondition } from "../Audience.ts"
import type { LayoutMemo } from "../render/View.ts"
import type { RenderRequest } from "./Answer.ts"
import type { PlaceTrees } from "./Navigation.ts"
import { narrowTo, visibleOf } from "./Places.ts"
import type { Reading } from "./ReadingTypes.ts"
import { perRequest, type RevisionReader } from "./Revisions.ts"
import { segmentsOf } from "./Routing.ts"
import { urlScheme } from "./UrlScheme.ts"

export type { Reading } from "./ReadingTypes.ts"

export const readingOf = (
  request: RenderRequest,
  revisions: RevisionReader,
  trees: PlaceTrees,
  layout: LayoutMemo,
  parseCondition: ParseCondition,
  askConfigured = false
): Reading => {
  const audience = visibleOf(request.site, request.claims, parseCondition)
  // A member admitted by their session reads through the site only the spaces they may read.
  const visible = request.readableSpaces === undefined ? audience : narrowTo(audience, request.readableSpaces)
  const urls = urlScheme(request.root)
  const reading: Reading = {
    request,
    site: request.site,
    visible,
    urls,
    ...segmentsOf(request.path),
    revision: perRequest(revisions),
    infoOf: revisions.infoOf,
    tree: (place, rev) => trees.of(reading, place, rev),
    layout,
    parseCondition,
    askConfigured
  }
  return reading
}
