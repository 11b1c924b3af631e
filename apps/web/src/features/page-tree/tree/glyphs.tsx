/** The icons of a tree row's buttons (stroked 16 px paths, hidden from assistive technology: the buttons are named). */


export interface GlyphProps {
  readonly d: string
}

export const Glyph = (props: GlyphProps) => (
  <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false"><path d={props.d} /></svg>
)
export const RenameGlyph = () => <Glyph d="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
export const MoveGlyph = () => <Glyph d="M8 4v16M4 8l4-4 4 4M16 20V4M12 16l4 4 4-4" />
export const DeleteGlyph = () => <Glyph d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6" />
export const LinkGlyph = () => <Glyph d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
