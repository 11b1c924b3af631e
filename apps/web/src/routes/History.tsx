/** `/s/<space>/~/history`: the space's revisions, newest first. */
import { Placeholder } from "./Placeholder.tsx"

export const History = (props: { readonly spaceId: string }) => (
  <Placeholder title="History" description="The space's revisions, each with its changes, will be here." back={{ href: `/s/${props.spaceId}`, label: "Open the space" }} />
)
