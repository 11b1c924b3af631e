/** The pages of the organization's sites that show the spec, each opening the page in the app. */
import { AsyncResult } from "effect/reactivity"
import { useAtomValue } from "../../../api/react.ts"
import { appPath, Link } from "../../../ui/Link.tsx"
import { Failure, Loading } from "../../../ui/States.tsx"
import { usagesAtom } from "../queries.ts"

export interface UsagesProps {
  readonly at: string
}

export const Usages = (props: UsagesProps) => {
  const usages = useAtomValue(usagesAtom(props.at))
  if (AsyncResult.isFailure(usages)) return <Failure result={usages} />
  if (!AsyncResult.isSuccess(usages)) return <Loading what="where it is used" />
  if (usages.value.items.length === 0) return <p className="muted">No page of the organization's sites shows it yet.</p>
  return (
    <ul className="admin-list">
      {usages.value.items.map((usage) => (
        <li key={`${usage.site.id} ${usage.page.id}`}>
          <span className="grow"><Link href={appPath(usage.urls.app)}>{usage.page.title === "" ? usage.page.path : usage.page.title}</Link> <span className="meta">in {usage.space.title}</span></span>
          <span className="meta">on <Link href={appPath(usage.urls.site)}>{usage.site.title === "" ? "Untitled site" : usage.site.title}</Link>{usage.site.published ? "" : " (not published)"}</span>
        </li>
      ))}
    </ul>
  )
}
