/** The keyboard's "Move to…": a place chosen in a list (arrows do not move the page), then "Move". */
import { type FormEvent, useState } from "react"
import { move, moveChoices, type TreePage } from "../tree-model.ts"
import type { Actions } from "./actions.ts"

export interface MoveToProps {
  readonly page: TreePage
  readonly actions: Actions
  readonly onClose: () => void
}

export const MoveTo = (props: MoveToProps) => {
  const choices = moveChoices(props.actions.tree, props.page.id)
  const [chosen, setChosen] = useState("")
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const choice = choices[Number(chosen)]
    if (chosen === "" || choice === undefined || choice.current) return
    props.onClose()
    props.actions.apply(move(props.actions.tree, props.page.id, choice.placement))
  }
  return (
    <form className="cr-tree-move" onSubmit={onSubmit} onKeyDown={(e) => { if (e.key === "Escape") props.onClose() }}>
      <label>
        Move “{props.page.title}” to
        <select autoFocus value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <option value="" disabled>Choose a place…</option>
          {choices.map((choice, index) => (
            <option key={index} value={index} disabled={choice.current}>{choice.label}{choice.current ? " (here now)" : ""}</option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={chosen === ""}>Move</button>
      <button type="button" onClick={props.onClose}>Cancel</button>
    </form>
  )
}
