/** `/s/<space>/~/revisions/<id>/<page path>`: one revision, its semantic changes and diff, its pages, and a way to restore it through a change request. */
import { RevisionView } from "../features/history/RevisionView.tsx"
import { BackIcon } from "../ui/icons.tsx"
import { Link } from "../ui/Link.tsx"

export const Revision = (props: { readonly spaceId: string; readonly revisionId: string; readonly pagePath: string }) => (
  <>
    <h1>Revision</h1>
    <div className="toolbar"><Link className="button" href={`/s/${props.spaceId}/~/history`}><BackIcon />Back to the history</Link></div>
    <RevisionView spaceId={props.spaceId} revisionId={props.revisionId} pagePath={props.pagePath} />
  </>
)
