/**
 * Port: the change request a finding's trigger opens in one of the site's spaces. The reviews
 * package owns change requests; the platform implements this port over its use cases and its agent.
 */
import { Context, type Effect } from "effect"
import type { Actor, Errors } from "@quire/kernel"

/** What a change request fixing a finding starts from. */
export interface FindingFix {
  readonly spaceId: string
  /** The change request's subject. */
  readonly subject: string
  /** The page the change request adds (or, with `pageId`, the title of the page it changes). */
  readonly pageTitle: string
  /** The page's markdown without a model: what the records ask, for a writer to answer; with `pageId`, a note put at the top of that page. */
  readonly stub: string
  /** The existing page to fix (an outdated or incorrect one), rather than a page to add. */
  readonly pageId?: string | undefined
  /** What the agent is asked to write, when the server has a model. */
  readonly instructions: string
}

export interface OpenedFix {
  readonly changeRequestId: string
  /** Whether the agent drafted the page (false: the page is the stub). */
  readonly drafted: boolean
  /** Why the agent did not draft it, when it did not. */
  readonly note: string | undefined
}

export interface FindingFixesShape {
  /** Opens the change request as the caller, adds the stub page (or puts the note atop the page to fix), and has the agent draft it when there is a model. */
  readonly open: (fix: FindingFix) => Effect.Effect<OpenedFix, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /** How many of these change requests are merged (those the caller cannot read count as not). */
  readonly merged: (refs: ReadonlyArray<{ readonly spaceId: string; readonly changeRequestId: string }>) => Effect.Effect<number, never, Actor.Actor>
}

export class FindingFixes extends Context.Service<FindingFixes, FindingFixesShape>()("@quire/sites/FindingFixes") {}
