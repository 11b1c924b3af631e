/** What the reviews package counts per space, shown on the space (GitBook's Space fields of the same names). */
export interface SpaceCounters {
  /** Open comments on the space's own content (not replies, not change-request comments). */
  readonly comments: number
  readonly changeRequests: number
  readonly changeRequestsOpen: number
  readonly changeRequestsDraft: number
}

export const noCounters: SpaceCounters = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 }

/** `counters` plus `delta`, never below zero. */
export const addCounters = (counters: SpaceCounters, delta: Partial<SpaceCounters>): SpaceCounters => ({
  comments: Math.max(0, counters.comments + (delta.comments ?? 0)),
  changeRequests: Math.max(0, counters.changeRequests + (delta.changeRequests ?? 0)),
  changeRequestsOpen: Math.max(0, counters.changeRequestsOpen + (delta.changeRequestsOpen ?? 0)),
  changeRequestsDraft: Math.max(0, counters.changeRequestsDraft + (delta.changeRequestsDraft ?? 0))
})
