/**
 * `/openapi/<org>/<slug>` (a spec's `urls.app`): its processing state and the last run's errors
 * (polled while it runs), its source and a new one from a URL or a file, its visibility and
 * published address, its operations with the page block that shows each, its versions, and
 * deleting it after a confirmation. Edit actions only for the spec's `permissions.edit`. Loaded
 * with `import()` (App.tsx).
 */
import { AsyncResult } from "effect/reactivity"
import { useEffect, useRef } from "react"
import { usePolling } from "../../api/polling.ts"
import { useAtomValue, useRefresh } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { stateOf } from "./model.ts"
import { latestContentAtom, specAtom, specRef, versionsAtom } from "./queries.ts"
import { Processing } from "./spec/Processing.tsx"
import { Source } from "./spec/Source.tsx"
import { Visibility } from "./spec/Visibility.tsx"
import { Operations } from "./spec/Operations.tsx"
import { Versions } from "./spec/Versions.tsx"
import { Usages } from "./spec/Usages.tsx"
import { Danger } from "./spec/Danger.tsx"
import "../admin/admin.css"
import "../sites/sites.css"
import "./specs.css"

interface SpecProps {
  readonly organizationId: string
  readonly slug: string
}

export default function Spec(props: SpecProps) {
  const ref = specRef(props.organizationId, props.slug)
  const atom = specAtom(ref)
  const spec = useAtomValue(atom)
  const running = AsyncResult.isSuccess(spec) && stateOf(spec.value).running
  usePolling(atom, running)
  // A run that brought a new version: its versions and operations are read again.
  const latest = AsyncResult.isSuccess(spec) ? spec.value.lastVersion ?? "" : undefined
  const seen = useRef(latest)
  const refresh = useRefresh()
  useEffect(() => {
    if (seen.current === latest) return
    if (seen.current !== undefined && latest !== undefined) {
      refresh(versionsAtom(ref))
      if (latest !== "") refresh(latestContentAtom(ref))
    }
    seen.current = latest
  }, [latest, ref, refresh])
  const crumbs = <p className="admin-back"><Link href={`/o/${props.organizationId}`}>Organization</Link> / <Link href={`/o/${props.organizationId}/openapi`}>OpenAPI specs</Link></p>
  if (!AsyncResult.isSuccess(spec)) {
    return <div className="admin">{crumbs}<h1>{props.slug}</h1>{AsyncResult.isFailure(spec) ? <Failure result={spec} /> : <Loading what="the spec" />}</div>
  }
  const value = spec.value
  return (
    <div className="admin spec-screen">
      {crumbs}
      <h1>{value.slug}</h1>
      <Processing spec={value} />
      <Source organizationId={props.organizationId} spec={value} />
      <Visibility organizationId={props.organizationId} spec={value} />
      <section className="admin-section" aria-labelledby="operations-heading">
        <h2 id="operations-heading">Operations</h2>
        <Operations organizationId={props.organizationId} spec={value} at={ref} />
      </section>
      <section className="admin-section" aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        <Versions at={ref} latest={value.lastVersion} />
      </section>
      <section className="admin-section" aria-labelledby="usages-heading">
        <h2 id="usages-heading">Used on</h2>
        <Usages at={ref} />
      </section>
      {value.permissions.edit ? <Danger organizationId={props.organizationId} spec={value} /> : null}
    </div>
  )
}
