/**
 * The workspace's slots that a screen fills from where its data is: the sidebar's pages (the
 * space's or the change request's tree), the end of the breadcrumbs (the page, the change request
 * and its state) and the right panel (outline, comments, who is here). The shell draws the slots;
 * a screen renders `<SidebarPages>`, `<BreadcrumbTail>` or `<RightPanel>` and its content is drawn
 * there (a portal: the screen's context, state and events stay its own).
 */
import { createContext, type ReactNode, useContext, useId, useState } from "react"
import { createPortal } from "react-dom"

export interface Slots {
  readonly pages: HTMLElement | null
  readonly crumbs: HTMLElement | null
  readonly right: HTMLElement | null
}

export const FrameSlots = createContext<Slots>({ pages: null, crumbs: null, right: null })

/** The pages of the open space or change request, in the sidebar below the organization's spaces. */
export const SidebarPages = (props: { readonly children: ReactNode }) => {
  const slot = useContext(FrameSlots).pages
  return slot === null ? null : createPortal(props.children, slot)
}

/** What follows the space in the breadcrumbs: inline content, each part a `<Crumb>`. */
export const BreadcrumbTail = (props: { readonly children: ReactNode }) => {
  const slot = useContext(FrameSlots).crumbs
  return slot === null ? null : createPortal(props.children, slot)
}

/** One part of the breadcrumbs' tail (the separator before it is drawn by the stylesheet). */
export const Crumb = (props: { readonly children: ReactNode; readonly current?: boolean }) =>
  <span className="crumb" aria-current={props.current === true ? "page" : undefined}>{props.children}</span>

const panelKey = "quire.rightPanel"

const readOpen = () => {
  try {
    return window.localStorage.getItem(panelKey) !== "closed"
  } catch {
    return true
  }
}

/**
 * The screen's side content, at the right of the page (below it on a narrow screen), collapsible;
 * whether it is open is remembered. `label` names it for assistive technology and on its toggle.
 */
export const RightPanel = (props: { readonly label: string; readonly children: ReactNode }) => {
  const slot = useContext(FrameSlots).right
  const [open, setOpen] = useState(readOpen)
  const id = useId()
  if (slot === null) return null
  const toggle = () => {
    const next = !open
    setOpen(next)
    try {
      window.localStorage.setItem(panelKey, next ? "open" : "closed")
    } catch {
      // Not remembered: the choice holds for this screen.
    }
  }
  return createPortal(
    <aside className="right-panel" aria-label={props.label} data-open={open}>
      <button type="button" className="right-panel-toggle" aria-expanded={open} aria-controls={id} onClick={toggle}
        title={open ? `Hide ${props.label.toLowerCase()}` : `Show ${props.label.toLowerCase()}`}>
        <span className="right-panel-arrow" aria-hidden="true">{open ? "»" : "«"}</span>
        <span className="right-panel-label">{props.label}</span>
      </button>
      <div id={id} className="right-panel-body" hidden={!open}>{props.children}</div>
    </aside>,
    slot
  )
}
