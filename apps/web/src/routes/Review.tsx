/** `/s/<space>/~/changes/<n>/~/review`: a change request's review (diff, comments, reviews, merge). */
import { Placeholder } from "./Placeholder.tsx"

export const Review = (props: { readonly spaceId: string; readonly number: number }) => (
  <Placeholder
    title={`Review of change request #${props.number}`}
    description="The change request's review will be here: its rendered diff, comments, reviews and merge."
    back={{ href: `/s/${props.spaceId}`, label: "Open the space" }}
  />
)
