/** `/s/<space>/~/revisions/<id>/<page path>`: one revision, its semantic changes and diff, and its pages. */
import { Placeholder } from "./Placeholder.tsx"

export const Revision = (props: { readonly spaceId: string; readonly revisionId: string; readonly pagePath: string }) => (
  <Placeholder
    title="Revision"
    description="This revision's semantic changes and diff will be here, with a way to restore it through a change request."
    back={{ href: `/s/${props.spaceId}/~/history`, label: "Open the history" }}
  />
)
