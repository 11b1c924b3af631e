/**
 * The before and after of one attribute of a semantic change, shared by RevisionChanges and the
 * reusable contents' part of it (ReusableContentChanges).
 */

/** An attribute's value before and after; a side without a value is absent. */
export interface AttributeChange<A> {
  readonly before?: A | undefined
  readonly after?: A | undefined
}
