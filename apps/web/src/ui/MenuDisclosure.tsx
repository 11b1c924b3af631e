/**
 * A button that opens a panel below it (a `<details>`, so Enter, Space and a click open and close
 * it without script); Escape closes it and puts the focus back on the button. `menu` lets the
 * panel's owner close it, after the action it offers.
 */
import type { KeyboardEvent, ReactNode, RefObject } from "react"

export const MenuDisclosure = (props: {
  readonly label: string
  readonly menu: RefObject<HTMLDetailsElement | null>
  readonly panelClassName?: string
  readonly children: ReactNode
}) => {
  const closeOnEscape = (event: KeyboardEvent) => {
    const details = props.menu.current
    if (event.key !== "Escape" || details?.open !== true) return
    details.open = false
    details.querySelector("summary")?.focus()
  }
  return (
    <details className="menu-disclosure" ref={props.menu} onKeyDown={closeOnEscape}>
      <summary className="button">{props.label}</summary>
      <div className={`menu-disclosure-panel ${props.panelClassName ?? ""}`.trim()} role="group" aria-label={props.label}>
        {props.children}
      </div>
    </details>
  )
}
