/**
 * A menu button (WAI-ARIA's menu button pattern): a button with `aria-haspopup="menu"` that opens a
 * `role="menu"` popover of `role="menuitem"` entries, placed by Floating UI below the button (above
 * it when there is no room). Arrow keys, Home, End and a first letter move between the entries;
 * Escape closes it and puts focus back on the button; a click outside or Tab closes it. Choosing an
 * entry closes the menu and gives focus back to the button before the entry's action runs, so an
 * action that opens a dialog or a form can take the focus itself.
 */
import { autoUpdate, computePosition, flip, offset, shift } from "@floating-ui/dom"
import { createContext, type KeyboardEvent, type ReactNode, useCallback, useContext, useEffect, useId, useLayoutEffect, useRef, useState } from "react"
import { CheckIcon } from "./icons.tsx"
import { Link } from "./Link.tsx"

/** Closes the menu, focus back on its button (the entries call it before their action). */
const MenuContext = createContext<() => void>(() => {})

const itemsOf = (menu: HTMLElement | null) =>
  menu === null ? [] : [...menu.querySelectorAll<HTMLElement>(':is([role="menuitem"], [role="menuitemradio"]):not([aria-disabled="true"])')]

export const Menu = (props: {
  /** The button's name; with `icon` and `iconOnly`, said to assistive technology and shown as a tooltip. */
  readonly label: string
  readonly icon?: ReactNode
  readonly iconOnly?: boolean
  /** What the button shows instead of the icon and label (the person's avatar and name); its text must still say `label`. */
  readonly button?: ReactNode
  /** A class for the button itself (a split button's halves, the header's quiet buttons). */
  readonly buttonClassName?: string
  /** Which edge of the button the menu lines up with. */
  readonly align?: "start" | "end"
  readonly className?: string
  readonly children: ReactNode
}) => {
  const [open, setOpen] = useState(false)
  // Which entry takes focus as the menu opens: the first, or the last (ArrowUp on the button).
  const [initial, setInitial] = useState<"first" | "last">("first")
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const id = useId()
  const close = useCallback((focusButton: boolean) => {
    setOpen(false)
    if (focusButton) button.current?.focus()
  }, [])
  const show = (at: "first" | "last") => {
    setInitial(at)
    setOpen(true)
  }
  useLayoutEffect(() => {
    if (!open || button.current === null || menu.current === null) return
    const reference = button.current
    const floating = menu.current
    const items = itemsOf(floating)
    ;(initial === "first" ? items[0] : items.at(-1))?.focus({ preventScroll: true })
    return autoUpdate(reference, floating, () => {
      void computePosition(reference, floating, {
        strategy: "fixed",
        placement: props.align === "start" ? "bottom-start" : "bottom-end",
        middleware: [offset(4), flip(), shift({ padding: 8 })]
      }).then(({ x, y }) => Object.assign(floating.style, { left: `${x}px`, top: `${y}px` }))
    })
  }, [open, initial, props.align])
  useEffect(() => {
    if (!open) return
    const outside = (event: PointerEvent) => {
      const target = event.target as Node
      if (!menu.current?.contains(target) && !button.current?.contains(target)) close(false)
    }
    document.addEventListener("pointerdown", outside)
    return () => document.removeEventListener("pointerdown", outside)
  }, [open, close])
  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault()
      show(event.key === "ArrowDown" ? "first" : "last")
    }
  }
  const onMenuKey = (event: KeyboardEvent) => {
    const items = itemsOf(menu.current)
    const at = items.indexOf(document.activeElement as HTMLElement)
    const move = (index: number) => {
      event.preventDefault()
      items[(index + items.length) % items.length]?.focus()
    }
    if (event.key === "ArrowDown") move(at + 1)
    else if (event.key === "ArrowUp") move(at - 1)
    else if (event.key === "Home") move(0)
    else if (event.key === "End") move(items.length - 1)
    else if (event.key === "Escape") {
      event.preventDefault()
      // The menu's Escape, not the drawer's or a dialog's beneath it.
      event.stopPropagation()
      close(true)
    } else if (event.key === "Tab") close(false)
    else if (event.key.length === 1 && /\S/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // A first letter: the next entry that starts with it.
      const letter = event.key.toLowerCase()
      const order = [...items.slice(at + 1), ...items.slice(0, at + 1)]
      const next = order.find((item) => item.textContent?.trim().toLowerCase().startsWith(letter))
      if (next !== undefined) move(items.indexOf(next))
    }
  }
  return (
    <div className={`menu-button ${props.className ?? ""}`.trim()}>
      <button type="button" ref={button} id={`${id}-button`} className={props.buttonClassName} aria-haspopup="menu" aria-expanded={open} aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? close(false) : show("first"))} onKeyDown={onButtonKey}
        aria-label={props.iconOnly === true ? props.label : undefined} title={props.iconOnly === true ? props.label : undefined}>
        {props.button ?? (
          <>
            {props.icon}
            {props.iconOnly === true ? null : <span>{props.label}</span>}
          </>
        )}
      </button>
      {open ? (
        <div className="menu-popover" role="menu" id={`${id}-menu`} aria-labelledby={`${id}-button`} ref={menu} onKeyDown={onMenuKey} tabIndex={-1}>
          <MenuContext.Provider value={() => close(true)}>{props.children}</MenuContext.Provider>
        </div>
      ) : null}
    </div>
  )
}

/** An entry that runs an action; with `checked`, one of a set of choices (a theme), the chosen one marked. */
export const MenuItem = (props: {
  readonly icon?: ReactNode
  readonly onSelect: () => void
  readonly disabled?: boolean
  readonly checked?: boolean
  readonly children: ReactNode
}) => {
  const close = useContext(MenuContext)
  return (
    <button type="button" role={props.checked === undefined ? "menuitem" : "menuitemradio"} aria-checked={props.checked}
      tabIndex={-1} className="menu-item" aria-disabled={props.disabled === true ? true : undefined}
      onClick={() => {
        if (props.disabled === true) return
        close()
        props.onSelect()
      }}>
      <span className="menu-item-icon">{props.icon}</span>
      <span className="menu-item-label">{props.children}</span>
      {props.checked === true ? <span className="menu-item-check"><CheckIcon /></span> : null}
    </button>
  )
}

/** An entry that goes to a screen of the app. */
export const MenuLink = (props: { readonly icon?: ReactNode; readonly href: string; readonly children: ReactNode }) => {
  const close = useContext(MenuContext)
  return (
    <Link role="menuitem" tabIndex={-1} className="menu-item" href={props.href} onClick={() => close()}>
      <span className="menu-item-icon">{props.icon}</span>
      <span className="menu-item-label">{props.children}</span>
    </Link>
  )
}

/** A line between entries. */
export const MenuSeparator = () => <div role="separator" className="menu-separator" />

/** Entries under a name (a menu allows groups and separators among its entries, no bare text). */
export const MenuGroup = (props: { readonly label: string; readonly children: ReactNode }) => (
  <div role="group" aria-label={props.label} className="menu-group">
    <div className="menu-group-label" aria-hidden="true">{props.label}</div>
    {props.children}
  </div>
)
