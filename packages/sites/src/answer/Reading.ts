/** One request as the answering modules read it: who reads, what they see, the URL scheme and the revisions they show. */
import type { Effect } from "effect"
import type { Revision } from "@quire/content"
import type { PublishedSite } from "../PublishedSites.ts"
import type { RenderRequest } from "./Answer.ts"
import type { PlaceTree, PlaceTrees } from "./Navigation.ts"
import { type Place, type Visible, visibleOf } from "./Places.ts"
import { perRequest, type RevisionInfo, type RevisionReader } from "./Revisions.ts"
import { segmentsOf } from "./Routing.ts"
import { urlScheme, type UrlScheme } from "./UrlScheme.ts"

export interface Reading {
  readonly request: RenderRequest
  readonly site: PublishedSite
  readonly visible: Visible
  readonly urls: UrlScheme
  /** The path's segments decoded, `undefined` where one does not decode. */
  readonly decoded: ReadonlyArray<string | undefined>
  /** Those that decode. */
  readonly segments: ReadonlyArray<string>
  /** The revision a place shows, read once per request. */
  readonly revision: (place: Place) => Effect.Effect<Revision>
  readonly infoOf: (rev: Revision) => RevisionInfo
  /** The page tree of a place's revision, built once for all its pages. */
  readonly tree: (place: Place, rev: Revision) => PlaceTree
}

export const readingOf = (request: RenderRequest, revisions: RevisionReader, trees: PlaceTrees): Reading => {
  const visible = visibleOf(request.site, request.claims)
  const urls = urlScheme(request.root)
  const reading: Reading = {
    request,
    site: request.site,
    visible,
    urls,
    ...segmentsOf(request.path),
    revision: perRequest(revisions),
    infoOf: revisions.infoOf,
    tree: (place, rev) => trees.of(reading, place, rev)
  }
  return reading
}
