/** The languages a code block's picker offers. No DOM here, so the tests run in Node. */

export interface LanguageChoice {
  /** What the fence's info string says (`""`: no language). */
  readonly value: string
  readonly label: string
}

/** Common languages, by the names GitBook's editor writes. */
export const commonLanguages: ReadonlyArray<LanguageChoice> = [
  { value: "", label: "Plain text" },
  { value: "bash", label: "Bash" },
  { value: "c", label: "C" },
  { value: "cpp", label: "C++" },
  { value: "csharp", label: "C#" },
  { value: "css", label: "CSS" },
  { value: "dart", label: "Dart" },
  { value: "diff", label: "Diff" },
  { value: "go", label: "Go" },
  { value: "graphql", label: "GraphQL" },
  { value: "html", label: "HTML" },
  { value: "java", label: "Java" },
  { value: "javascript", label: "JavaScript" },
  { value: "json", label: "JSON" },
  { value: "jsx", label: "JSX" },
  { value: "kotlin", label: "Kotlin" },
  { value: "markdown", label: "Markdown" },
  { value: "php", label: "PHP" },
  { value: "powershell", label: "PowerShell" },
  { value: "python", label: "Python" },
  { value: "ruby", label: "Ruby" },
  { value: "rust", label: "Rust" },
  { value: "scala", label: "Scala" },
  { value: "shell", label: "Shell" },
  { value: "sql", label: "SQL" },
  { value: "swift", label: "Swift" },
  { value: "toml", label: "TOML" },
  { value: "tsx", label: "TSX" },
  { value: "typescript", label: "TypeScript" },
  { value: "xml", label: "XML" },
  { value: "yaml", label: "YAML" }
]

/**
 * What the picker lists for a block whose language is `current`: the common languages, and `current` itself
 * (as written, `js` or `py`) after "Plain text" when it is not one of them, so the picker always shows it and
 * choosing nothing else keeps its bytes.
 */
export const languageChoices = (current: string): ReadonlyArray<LanguageChoice> =>
  commonLanguages.some((choice) => choice.value === current)
    ? commonLanguages
    : [commonLanguages[0]!, { value: current, label: current }, ...commonLanguages.slice(1)]
