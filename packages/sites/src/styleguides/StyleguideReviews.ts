/**
 * Port: what style guide checks need of change requests, which the reviews package owns. The
 * platform implements it over reviews' ChangeRequests and Comments, so every comment goes through
 * the same use case, permissions and counters as a person's, posted as the person who ran the check.
 */
import { Context, type Effect } from "effect"
import type { Actor, Errors } from "@quire/kernel"

export interface ReviewTarget {
  readonly id: string
  readonly number: number
  readonly spaceId: string
  /** Draft or open: a check may still comment on it. */
  readonly open: boolean
  /** Whether the caller may comment on it. */
  readonly canComment: boolean
}

export interface ReviewPage {
  readonly id: string
  readonly title: string
  readonly markdown: string
}

export interface StyleguideReviewsShape {
  /** A change request of the space, by id or number, as the caller sees it. */
  readonly changeRequest: (spaceId: string, ref: string) => Effect.Effect<ReviewTarget, Errors.NotFound, Actor.Actor>
  /** Opens a draft change request on the space for a check. */
  readonly open: (spaceId: string, subject: string) => Effect.Effect<ReviewTarget, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /** The document pages of a change request: those it changes from its base (`changed`), or all of them. */
  readonly pages: (spaceId: string, changeRequestId: string, which: "changed" | "all") => Effect.Effect<ReadonlyArray<ReviewPage>, Errors.NotFound, Actor.Actor>
  /** Posts a review comment on a page of the change request (`node`: the review screen's anchor); answers its id. */
  readonly comment: (
    spaceId: string,
    changeRequestId: string,
    input: { readonly page: string; readonly node: string; readonly markdown: string }
  ) => Effect.Effect<string, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
}

export class StyleguideReviews extends Context.Service<StyleguideReviews, StyleguideReviewsShape>()("@quire/sites/StyleguideReviews") {}
