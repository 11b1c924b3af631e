/** The few icons the app draws, inline SVG (no icon font, nothing loaded): decorative, hidden from assistive technology. */
const Icon = (props: { readonly d: string }) => (
  <svg className="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
    <path d={props.d} />
  </svg>
)

export const FolderIcon = () => <Icon d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
export const SpaceIcon = () => <Icon d="M5 4h10l4 4v12H5zM15 4v4h4M8 12h8M8 16h6" />
export const SearchIcon = () => <Icon d="M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM20 20l-4-4" />
export const MoonIcon = () => <Icon d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" />
export const SunIcon = () => <Icon d="M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
export const MenuIcon = () => <Icon d="M4 6h16M4 12h16M4 18h16" />
export const CloseIcon = () => <Icon d="M6 6l12 12M18 6L6 18" />
export const PlusIcon = () => <Icon d="M12 5v14M5 12h14" />
