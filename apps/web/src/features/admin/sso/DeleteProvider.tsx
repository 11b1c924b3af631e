/** Deletes a provider after a confirmation. */
import { type ReactNode, useState } from "react"
import { problemOf } from "../problems.ts"
import { Confirm } from "../ui.tsx"

export interface DeleteProviderProps {
  readonly label: string
  readonly kind: string
  readonly onDelete: () => Promise<void>
  readonly children: ReactNode
}

export const DeleteProvider = (props: DeleteProviderProps) => {
  const [open, setOpen] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  return (
    <>
      <button type="button" className="danger" onClick={() => { setProblem(undefined); setOpen(true) }}>
        Delete<span className="visually-hidden"> {props.label}</span>
      </button>
      {open ? (
        <Confirm title={`Delete the ${props.kind} provider ${props.label}?`} action="Delete" busyAction="Deleting…" problem={problem} onClose={() => setOpen(false)}
          onConfirm={async () => {
            try {
              await props.onDelete()
              setOpen(false)
            } catch (error) {
              setProblem(problemOf(error, []).form)
            }
          }}>
          {props.children}
        </Confirm>
      ) : null}
    </>
  )
}
