/** The error of a repository that cannot be read in GitBook's layout. */
import { Schema } from "effect"

/** A repository that cannot be read in GitBook's layout: the file and why. */
export class LayoutProblem extends Schema.TaggedError<LayoutProblem>()("LayoutProblem", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.path}: ${this.reason}`
  }
}
