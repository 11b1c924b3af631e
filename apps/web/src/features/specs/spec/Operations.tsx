/** The latest version's operations, each with the block a page writes to show it. */
import type { OpenAPISpecContent } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import { useAtomValue } from "../../../api/react.ts"
import { Failure, Loading } from "../../../ui/States.tsx"
import { CopyButton } from "../../admin/ui.tsx"
import { entryDocument, operationBlock, operationsOf } from "../model.ts"
import { latestContentAtom } from "../queries.ts"
import type { SpecSectionProps } from "./props.ts"

export const noContent: Atom.Atom<AsyncResult.AsyncResult<OpenAPISpecContent, unknown>> = Atom.make(AsyncResult.initial<OpenAPISpecContent, unknown>())

export const Operations = (props: SpecSectionProps & { readonly at: string }) => {
  const content = useAtomValue<AsyncResult.AsyncResult<OpenAPISpecContent, unknown>>(props.spec.lastVersion === undefined ? noContent : latestContentAtom(props.at))
  if (props.spec.lastVersion === undefined) return <p className="muted">No version yet: its operations show once it is processed.</p>
  if (AsyncResult.isFailure(content)) return <Failure result={content} />
  if (!AsyncResult.isSuccess(content)) return <Loading what="the operations" />
  const operations = operationsOf(entryDocument(content.value))
  if (operations.length === 0) return <p className="muted">The document has no operations.</p>
  return (
    <>
      <p className="meta">To show one on a page, put its block in the page's markdown.</p>
      <ul className="admin-list spec-operations">
        {operations.map((operation) => (
          <li key={`${operation.method} ${operation.path}`}>
            <span className={`method method-${operation.method}`}>{operation.method.toUpperCase()}</span>
            <code className="grow">{operation.path}</code>
            {operation.summary === undefined ? null : <span className="meta">{operation.summary}</span>}
            <span className="row-actions"><CopyButton text={operationBlock(props.spec.slug, operation)} label={`Copy block`} /></span>
          </li>
        ))}
      </ul>
    </>
  )
}
