/** A change request's state in words, as GitBook says it: Draft, In review, Merged, Archived. */
export const stateWords: Readonly<Record<string, string>> = { draft: "Draft", open: "In review", merged: "Merged", archived: "Archived" }

/** The state as a small label (the breadcrumbs'). */
export const ChangeRequestState = (props: { readonly status: string }) =>
  <span className="crumb-state" data-status={props.status}>{stateWords[props.status] ?? props.status}</span>
