/**
 * The built-in style guide starter templates (GitBook's `StyleguideTemplate`): markdown a site's
 * style guide space starts from. Each rule is a `##` heading; a line in the forms `Rules.ts` reads
 * ("Avoid …", "Use "x", not "y"", "at most N words", "passive voice") is checked without a model,
 * and the rest of a rule's text is what a model checks. Written in Quire's own words.
 */

export interface StyleguideTemplate {
  readonly id: string
  readonly title: string
  readonly subtitle: string
  readonly emoji: string
  readonly markdown: string
}

const plainLanguage = `# Plain language

Write for a reader who is busy and may not share our first language. These rules come first; a team adds its own below them.

## Short sentences

Keep a sentence to one idea. Sentences: at most 25 words.

## No filler words

Words that tell the reader a step is easy help nobody who finds it hard.

Avoid: "simply", "just", "easily", "obviously", "of course", "basically".

## Active voice

Say who does what. Avoid the passive voice: "the file is saved by the editor" becomes "the editor saves the file".

## Plain words

Use "use", not "utilize", "utilise".
Use "help", not "facilitate".
Use "start", not "commence".

## Address the reader

Write to the reader as "you", and give instructions as imperatives ("Open the settings"), not as wishes ("You may want to open the settings").
`

const microsoftLike = `# Warm and direct

A friendly, crisp voice for product documentation, in the spirit of the big software style guides. It is our own summary, not any company's text.

## Sign in, not log in

Use "sign in", not "log in", "login", "logon".
Use "sign out", not "log out", "logout".

## Select, not click

Use "select", not "click on".

## Contractions are welcome

Prefer "it's", "you'll" and "don't" where they read naturally: they sound like a person talking.

## Sentence-case headings

Capitalize only the first word of a heading and proper nouns ("Create a site", not "Create A Site").

## Short sentences

Sentences: at most 30 words.

## No please in instructions

Avoid: "please".
`

const developerDocs = `# Developer documentation

For API references and guides read by engineers, in the spirit of the well-known developer style guides. It is our own summary, not any company's text.

## Present tense

Describe what the software does now: "the call returns a list", not "the call will return a list".

## Avoid Latin abbreviations

Avoid: "e.g.", "i.e.", "etc.", "via".

## Code in code font

Put names of functions, files, fields and commands in code font, and show complete, runnable examples.

## Active voice

Avoid the passive voice: name the thing that acts ("the server sends a token").

## Precise words

Use "allowlist", not "whitelist".
Use "denylist", not "blacklist".
Use "primary", not "master".

## Short sentences

Sentences: at most 26 words.
`

/** The templates, in the order a screen offers them. */
export const styleguideTemplates: ReadonlyArray<StyleguideTemplate> = [
  { id: "plain-language", title: "Plain language", subtitle: "Short sentences, everyday words, active voice", emoji: "📝", markdown: plainLanguage },
  { id: "warm-and-direct", title: "Warm and direct", subtitle: "A friendly product voice: sign in, select, contractions", emoji: "💬", markdown: microsoftLike },
  { id: "developer-docs", title: "Developer documentation", subtitle: "Present tense, code font, precise and inclusive terms", emoji: "🛠️", markdown: developerDocs }
]

export const styleguideTemplate = (id: string): StyleguideTemplate | undefined => styleguideTemplates.find((t) => t.id === id)
