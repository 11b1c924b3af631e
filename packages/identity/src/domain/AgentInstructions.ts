/** An organization's agent instructions as identity keeps them (GitBook's `OrganizationAgentInstructions`). */

/** GitBook's `JSONDocument`, kept as sent once checked (identity does not read its nodes). */
export interface InstructionsDocument {
  readonly object: "document"
  readonly data: Readonly<Record<string, unknown>>
  readonly nodes: ReadonlyArray<unknown>
}

/** The instructions, with when and by whom they were last set. */
export interface StoredInstructions {
  readonly instructions: InstructionsDocument
  readonly updatedAt: Date
  readonly updatedBy: string
}

