/**
 * A bar of tabs where each tab is an address (a screen's parts, a settings area): a `<nav>` of links,
 * the current one `aria-current="page"`. Tab moves through them and Enter opens one, as for any link;
 * the browser's back and reload keep the tab. On a narrow screen the bar scrolls by itself, never the page,
 * with the current tab scrolled into view.
 */
import { useLayoutEffect, useRef } from "react"
import { Link } from "./Link.tsx"

export interface Tab {
  readonly key: string
  readonly label: string
  readonly href: string
}

export const Tabs = (props: { readonly label: string; readonly tabs: ReadonlyArray<Tab>; readonly current: string }) => {
  const bar = useRef<HTMLElement>(null)
  useLayoutEffect(() => {
    const nav = bar.current
    if (nav === null) return
    // Only the bar scrolls (scrollIntoView would move the page too), now and when its width changes.
    const reveal = () => {
      const current = nav.querySelector<HTMLElement>('[aria-current="page"]')
      if (current === null) return
      if (current.offsetLeft < nav.scrollLeft || current.offsetLeft + current.offsetWidth > nav.scrollLeft + nav.clientWidth) {
        nav.scrollLeft = current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2
      }
    }
    reveal()
    const observer = new ResizeObserver(reveal)
    observer.observe(nav)
    return () => observer.disconnect()
  }, [props.current])
  return (
    <nav className="tabs" aria-label={props.label} ref={bar}>
      {props.tabs.map((tab) => (
        <Link key={tab.key} href={tab.href} aria-current={tab.key === props.current ? "page" : undefined}>{tab.label}</Link>
      ))}
    </nav>
  )
}
