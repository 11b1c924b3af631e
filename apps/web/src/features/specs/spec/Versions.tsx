/** The spec's versions, newest first, each with when it was read. */
import { AsyncResult } from "effect/reactivity"
import { useAtomValue } from "../../../api/react.ts"
import { Failure, Loading } from "../../../ui/States.tsx"
import { formatTime } from "../../../ui/time.ts"
import { versionsAtom } from "../queries.ts"

export interface VersionsProps {
  readonly at: string
  readonly latest: string | undefined
}

export const Versions = (props: VersionsProps) => {
  const versions = useAtomValue(versionsAtom(props.at))
  if (AsyncResult.isFailure(versions)) return <Failure result={versions} />
  if (!AsyncResult.isSuccess(versions)) return <Loading what="the versions" />
  if (versions.value.items.length === 0) return <p className="muted">No version yet.</p>
  return (
    <ul className="admin-list">
      {versions.value.items.map((version) => (
        <li key={version.id}>
          <span className="grow">{formatTime(version.createdAt)} {version.id === props.latest ? <span className="badge">Latest</span> : null}</span>
          <a href={version.url} target="_blank" rel="noreferrer" className="small">Document</a>
        </li>
      ))}
    </ul>
  )
}
