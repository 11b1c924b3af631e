/** `/s/<space>/~/history`: main's revisions, newest first, each with what it changed (src/features/history/). */
import { HistoryList } from "../features/history/HistoryList.tsx"
import { Link } from "../ui/Link.tsx"

export const History = (props: { readonly spaceId: string }) => (
  <>
    <h1>History</h1>
    <p><Link href={`/s/${props.spaceId}`}>Back to the space</Link></p>
    <HistoryList spaceId={props.spaceId} />
  </>
)
