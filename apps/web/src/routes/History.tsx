/** `/s/<space>/~/history`: main's revisions, newest first, each with what it changed (src/features/history/). */
import { HistoryList } from "../features/history/HistoryList.tsx"
import { BackIcon } from "../ui/icons.tsx"
import { Link } from "../ui/Link.tsx"

export const History = (props: { readonly spaceId: string }) => (
  <>
    <h1>History</h1>
    <div className="toolbar"><Link className="button" href={`/s/${props.spaceId}`}><BackIcon />Back to the space</Link></div>
    <HistoryList spaceId={props.spaceId} />
  </>
)
