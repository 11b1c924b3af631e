/**
 * Which events a site keeps of its anonymous readers, whether its own script or GitBook's renderer
 * sent them: page feedback when it asks for feedback, every other event when it records views.
 */

/** Whether an event (a beacon's, GitBook's tracked one) is page feedback (kept when the site asks for feedback but records no views). */
export const isFeedback = (event: { readonly type: string }): boolean => event.type === "page_post_feedback" || event.type === "page_post_feedback_comment"

/**
 * What a site records of its anonymous readers' events: views when it records views (its
 * `insights` set), ratings and comments when it asks for feedback.
 */
export const recordedBy = (customization: {
  readonly insights?: unknown
  readonly feedback?: { readonly enabled?: boolean | undefined } | undefined
}): { readonly views: boolean; readonly feedback: boolean } => ({
  views: customization.insights !== undefined,
  feedback: customization.feedback?.enabled === true
})
