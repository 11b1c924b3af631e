/** "Edit" on a page of a space: opens the person's change request on that page (or starts one). */
import { Link } from "../../ui/Link.tsx"

export const EditButton = (props: { readonly spaceId: string; readonly pagePath: string }) => (
  <Link href={`/s/${props.spaceId}/~/changes`} className="button">Edit</Link>
)
