/** A part of the insights screen: its heading, and what it says when it has nothing. */
import type { ReactNode } from "react"

export const Part = (props: { readonly id: string; readonly title: string; readonly empty: string; readonly count: number; readonly children: ReactNode }) => (
  <section className="insights-part panel" aria-labelledby={props.id}>
    <h2 id={props.id}>{props.title}</h2>
    {props.count === 0 ? <p className="muted">{props.empty}</p> : props.children}
  </section>
)
