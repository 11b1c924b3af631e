/** `/s/<space>/~/revisions/<id>/<page path>`: one revision, its semantic changes and diff, its pages, and a way to restore it through a change request. */
import { RevisionView } from "../features/history/RevisionView.tsx"
import { Link } from "../ui/Link.tsx"

export const Revision = (props: { readonly spaceId: string; readonly revisionId: string; readonly pagePath: string }) => (
  <>
    <h1>Revision</h1>
    <p><Link href={`/s/${props.spaceId}/~/history`}>Back to the history</Link></p>
    <RevisionView spaceId={props.spaceId} revisionId={props.revisionId} pagePath={props.pagePath} />
  </>
)
