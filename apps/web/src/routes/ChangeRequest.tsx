/** `/s/<space>/~/changes/<n>/<page path>`: a change request's content, where its pages are edited. */
import { Placeholder } from "./Placeholder.tsx"

export const ChangeRequest = (props: { readonly spaceId: string; readonly number: number; readonly pagePath: string }) => (
  <Placeholder
    title={`Change request #${props.number}`}
    description="The change request's pages, edited in place, will be here."
    back={{ href: `/s/${props.spaceId}/~/changes/${props.number}/~/review`, label: "Open its review" }}
  />
)
