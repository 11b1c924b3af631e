/**
 * What a screen shows when it cannot render: a failure of its own code, or of a part of the app
 * that could not be loaded (a chunk removed by a newer deployment, the network gone). The rest of
 * the app (the header, the menus) stays; the screen says what happened and offers to try again or
 * to reload the app. Moving to another screen (`resetKey`, the route's path) starts afresh.
 */
import { Component, type ReactNode } from "react"

export interface RouteBoundaryProps {
  /** The screen's identity: when it changes, a failure shown for the previous screen is forgotten. */
  readonly resetKey: string
  readonly children: ReactNode
}

interface RouteBoundaryState {
  readonly error: unknown
  readonly failed: boolean
  readonly resetKey: string
}

/** Whether `error` is a part of the app that did not load, rather than a failure of the screen's code. */
const isMissingCode = (error: unknown): boolean =>
  error instanceof Error && /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically/i.test(error.message)

export class RouteBoundary extends Component<RouteBoundaryProps, RouteBoundaryState> {
  override state: RouteBoundaryState = { error: undefined, failed: false, resetKey: this.props.resetKey }

  static getDerivedStateFromError(error: unknown): Partial<RouteBoundaryState> {
    return { error, failed: true }
  }

  static getDerivedStateFromProps(props: RouteBoundaryProps, state: RouteBoundaryState): Partial<RouteBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: undefined, failed: false, resetKey: props.resetKey }
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children
    const missing = isMissingCode(this.state.error)
    return (
      <div className="panel route-failure" role="alert">
        <h1>This screen could not be shown</h1>
        <p>
          {missing
            ? "Part of the app could not be loaded: the connection dropped, or Quire was updated since this page was opened. Reloading the app fetches it again."
            : "Something in this screen failed. Trying again often helps; if it does not, reload the app. Nothing you saved is lost."}
        </p>
        <div className="route-failure-actions">
          {missing ? null : <button type="button" onClick={() => this.setState({ error: undefined, failed: false })}>Try again</button>}
          <button type="button" className="primary" onClick={() => window.location.reload()}>Reload the app</button>
        </div>
      </div>
    )
  }
}
