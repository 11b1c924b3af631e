/** A screen of a `urls.app` form the app does not draw yet: says what it will be, never a 404. */
import { Link } from "../ui/Link.tsx"

export const Placeholder = (props: { readonly title: string; readonly description: string; readonly back?: { readonly href: string; readonly label: string } }) => (
  <section className="placeholder">
    <h1>{props.title}</h1>
    <p>{props.description}</p>
    <p className="muted">This screen is not built yet.</p>
    {props.back === undefined ? null : <p><Link href={props.back.href}>{props.back.label}</Link></p>}
  </section>
)

export const NotFound = (props: { readonly path: string }) => (
  <section className="placeholder">
    <h1>Nothing here</h1>
    <p>The app has no screen at <code>{props.path}</code>.</p>
    <p><Link href="/">Go to your organizations</Link></p>
  </section>
)
