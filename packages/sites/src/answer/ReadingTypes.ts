/**
 * One request as the answering modules read it, and the page tree of a place it reads: the shapes
 * Reading.ts builds and Navigation.ts fills, kept apart so that neither imports the other.
 */
import type { Effect } from "effect"
import type { Revision } from "@quire/content"
import type { ParseCondition } from "../Audience.ts"
import type { PublishedSite } from "../PublishedSites.ts"
import type * as View from "../render/View.ts"
import type { RenderRequest } from "./Answer.ts"
import type { Place, Visible } from "./Places.ts"
import type { RevisionInfo } from "./Revisions.ts"
import type { UrlScheme } from "./UrlScheme.ts"

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
  /** What the renderer keeps for its pages' layout (themes, trees laid out). */
  readonly layout: View.LayoutMemo
  /** How the site's conditions are parsed (remembered by the renderer). */
  readonly parseCondition: ParseCondition
  /** Whether the server has a model for Ask (the page then offers it where the site does). */
  readonly askConfigured?: boolean | undefined
}

/** A place's page tree as every page of its revision shows it, and its documents in reading order. */
export interface PlaceTree {
  readonly items: ReadonlyArray<View.TreeItem>
  readonly order: ReadonlyArray<View.TreeDocument>
  /** A document's place in `order`, by page id. */
  readonly at: ReadonlyMap<string, number>
}
