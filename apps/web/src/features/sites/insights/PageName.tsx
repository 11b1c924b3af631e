/** A page an insight is about, linked in its space; `fallback` when the site no longer shows it. */
import { Link } from "../../../ui/Link.tsx"
import type { PageInfo } from "./queries.ts"

export const PageName = (props: { readonly page: PageInfo | undefined; readonly fallback: string }) =>
  props.page === undefined
    ? <span className="muted">{props.fallback}</span>
    : <Link href={`/s/${props.page.spaceId}/${props.page.path}`}>{props.page.title}<span className="muted"> · {props.page.spaceTitle}</span></Link>
