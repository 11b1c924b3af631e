/**
 * The frame of every signed-in screen, GitBook's workspace: the left sidebar (brand, organization
 * switcher, the organization's spaces, the open space's pages; a drawer on a narrow screen), the
 * header (breadcrumbs, search (the command palette, Ctrl/Cmd-K), the notifications bell with the
 * unread count, the theme toggle, the person's menu), the screen, and the right panel a screen
 * fills (Frame.tsx).
 */
import { AsyncResult } from "effect/reactivity"
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react"
import type { SessionInfo } from "../api/auth.ts"
import { signOut } from "../api/auth.ts"
import { organizationsAtom } from "../api/queries.ts"
import { useAtomValue, useRefresh } from "../api/react.ts"
import { sessionAtom } from "../api/session.ts"
import { Bell } from "../features/notifications/Bell.tsx"
import { Palette } from "../features/palette/Palette.tsx"
import { navigate } from "../router.ts"
import { Breadcrumbs, type Place } from "./Breadcrumbs.tsx"
import { FrameSlots } from "./Frame.tsx"
import { BellIcon, CloseIcon, MenuIcon, MoonIcon, ProfileIcon, SearchIcon, SignOutIcon, SunIcon, SystemThemeIcon } from "./icons.tsx"
import { Menu, MenuGroup, MenuItem, MenuLink, MenuSeparator } from "./Menu.tsx"
import { useTheme } from "./theme.ts"
import { Sidebar } from "./Sidebar.tsx"
import { VerifyEmailBanner } from "./VerifyEmailBanner.tsx"

/** Up to two initials of a name, for the narrow header. */
const initialsOf = (name: string) =>
  name.split(/\s+/).filter((part) => part !== "").slice(0, 2).map((part) => part[0]!.toUpperCase()).join("") || "?"

/**
 * The person's menu (GitBook's): who is signed in, their settings and sessions, their notifications,
 * the theme (light, dark or the system's) and signing out, on ui/Menu.tsx so the keyboard works as
 * in every other menu.
 */
const UserMenu = (props: { readonly info: SessionInfo }) => {
  const refresh = useRefresh()
  const theme = useTheme()
  const name = props.info.user.displayName
  const onSignOut = async () => {
    await signOut()
    refresh(sessionAtom)
    navigate("/sign-in", { replace: true })
  }
  return (
    <Menu label={name} align="end" className="user-menu" buttonClassName="user-button" button={
      <>
        <span className="avatar" aria-hidden="true">{initialsOf(name)}</span>
        <span className="full-name">{name}</span>
      </>
    }>
      <MenuGroup label={props.info.user.email}>
        <MenuLink icon={<ProfileIcon />} href="/settings/sessions">Settings and sessions</MenuLink>
        <MenuLink icon={<BellIcon />} href="/notifications">Notifications</MenuLink>
      </MenuGroup>
      <MenuSeparator />
      <MenuGroup label="Theme">
        <MenuItem icon={<SunIcon />} checked={theme.choice === "light"} onSelect={() => theme.set("light")}>Light</MenuItem>
        <MenuItem icon={<MoonIcon />} checked={theme.choice === "dark"} onSelect={() => theme.set("dark")}>Dark</MenuItem>
        <MenuItem icon={<SystemThemeIcon />} checked={theme.choice === "system"} onSelect={() => theme.set("system")}>As the system</MenuItem>
      </MenuGroup>
      <MenuSeparator />
      <MenuItem icon={<SignOutIcon />} onSelect={() => void onSignOut()}>Sign out</MenuItem>
    </Menu>
  )
}

const lastOrganizationKey = "quire.organization"

/** The organization of the screen, else the one last opened if the person is still in it (settings belong to none). */
const useCurrentOrganization = (organizationId: string | undefined) => {
  const orgs = useAtomValue(organizationsAtom)
  useEffect(() => {
    if (organizationId !== undefined) window.localStorage.setItem(lastOrganizationKey, organizationId)
  }, [organizationId])
  if (organizationId !== undefined) return organizationId
  const remembered = window.localStorage.getItem(lastOrganizationKey)
  return AsyncResult.isSuccess(orgs) && orgs.value.items.some((org) => org.id === remembered) ? remembered ?? undefined : undefined
}

/**
 * The narrow screen's drawer: open, it takes focus and the rest of the screen is inert; Escape, its
 * close button or a click beside it closes it and focus returns to its button.
 */
const useDrawer = (pathname: string) => {
  // Where it was opened: following a link in it (another path) closes it.
  const [openAt, setOpenAt] = useState<string | undefined>(undefined)
  const open = openAt === pathname
  const setOpen = useCallback((value: boolean) => setOpenAt(value ? pathname : undefined), [pathname])
  // Closed for good once left: Back to the path it was opened on does not open it again (over an inert page).
  useEffect(() => setOpenAt((at) => at === pathname ? at : undefined), [pathname])
  const opener = useRef<HTMLButtonElement>(null)
  const drawer = useRef<HTMLElement>(null)
  // Whether focus goes back to the button once the drawer is closed (and the button no longer inert).
  const returnFocus = useRef(false)
  const close = useCallback((focusOpener: boolean) => {
    returnFocus.current = focusOpener
    setOpen(false)
  }, [setOpen])
  useEffect(() => {
    if (!open) {
      if (returnFocus.current) opener.current?.focus()
      returnFocus.current = false
      return
    }
    // Its first control: the brand, then the organization switcher.
    drawer.current?.querySelector<HTMLElement>("a[href], select, button")?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) close(true)
    }
    document.addEventListener("keydown", onKey)
    return () => document.removeEventListener("keydown", onKey)
  }, [open, close])
  return { open, setOpen, close, opener, drawer }
}

export const Shell = (props: { readonly place?: Place | undefined; readonly organizationId?: string | undefined; readonly label?: string | undefined; readonly children: ReactNode }) => {
  const organizationId = useCurrentOrganization(props.organizationId)
  const session = useAtomValue(sessionAtom)
  const theme = useTheme()
  const [paletteOpen, setPaletteOpen] = useState(false)
  const [pages, setPages] = useState<HTMLElement | null>(null)
  const [crumbs, setCrumbs] = useState<HTMLElement | null>(null)
  const [right, setRight] = useState<HTMLElement | null>(null)
  const slots = useMemo(() => ({ pages, crumbs, right }), [pages, crumbs, right])
  const drawer = useDrawer(window.location.pathname)
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Not a Ctrl/Cmd-K something focused already handled (the editor's link picker).
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k" && !event.defaultPrevented) {
        event.preventDefault()
        setPaletteOpen(true)
      }
    }
    document.addEventListener("keydown", onKey)
    return () => document.removeEventListener("keydown", onKey)
  }, [])
  const info = AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info : undefined
  const place = props.place ?? (organizationId === undefined ? undefined : { organizationId, exact: false })
  return (
    <FrameSlots.Provider value={slots}>
      <a className="skip-link" href="#content">Skip to content</a>
      <div className="workspace" data-drawer={drawer.open ? "open" : "closed"}>
        <header className="shell-header" inert={drawer.open}>
          <button type="button" className="drawer-open" ref={drawer.opener} aria-controls="sidebar" aria-expanded={drawer.open}
            onClick={() => drawer.setOpen(true)} aria-label="Open the sidebar" title="Spaces and pages">
            <MenuIcon size={18} />
          </button>
          {place === undefined ? <span className="spacer" /> : <Breadcrumbs place={place} label={props.label} tail={setCrumbs} />}
          {organizationId === undefined ? null : (
            <button type="button" className="search-button" onClick={() => setPaletteOpen(true)} aria-keyshortcuts="Control+K Meta+K">
              <SearchIcon /><span className="label">Ask or search…</span><kbd className="label">Ctrl K</kbd>
            </button>
          )}
          {info === undefined ? null : <Bell />}
          <button type="button" onClick={theme.toggle} aria-label={theme.dark ? "Use the light theme" : "Use the dark theme"} title={theme.dark ? "Light theme" : "Dark theme"}>
            {theme.dark ? <SunIcon size={18} /> : <MoonIcon size={18} />}
          </button>
          {info === undefined ? null : <UserMenu info={info} />}
        </header>
        <aside id="sidebar" className="sidebar" aria-label="Sidebar" ref={drawer.drawer}>
          <Sidebar organizationId={organizationId} here={{ spaceId: place?.spaceId, collectionId: place?.collectionId }} pagesSlot={setPages}
            onSearch={() => { drawer.close(false); setPaletteOpen(true) }}
            close={<button type="button" className="drawer-close" onClick={() => drawer.close(true)} aria-label="Close the sidebar"><CloseIcon /></button>} />
        </aside>
        {/* A click beside the open drawer closes it (the keyboard has Escape and the close button). */}
        <div className="drawer-backdrop" aria-hidden="true" onClick={() => drawer.close(false)} />
        <div className="workspace-body" inert={drawer.open}>
          {info !== undefined && info.user.emailVerified === false && info.emailDelivery === true ? <VerifyEmailBanner email={info.user.email} /> : null}
          <div className="workspace-columns">
            <main id="content" tabIndex={-1}>{props.children}</main>
            <div className="right-panel-slot" ref={setRight} />
          </div>
        </div>
      </div>
      {paletteOpen && organizationId !== undefined
        ? <Palette organizationId={organizationId} onClose={() => setPaletteOpen(false)} />
        : null}
    </FrameSlots.Provider>
  )
}
