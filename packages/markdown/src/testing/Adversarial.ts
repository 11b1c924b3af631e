/**
 * Hostile markdown for tests and the bench: each construct markdown nests (brackets, links,
 * images, emphasis, lists, quotes, GitBook blocks, HTML, tables, reference definitions, code
 * spans), repeated to a given depth or to about a given size. What the limits of
 * `MarkdownLimits.ts` must refuse, or handle quickly.
 */

/** One adversarial construct: its name and a page of about `bytes` characters (`depth` levels where it nests). */
export interface AdversarialCase {
  readonly name: string
  readonly markdown: string
}

/** `count` repetitions of `unit`, at least one. */
const times = (unit: string, count: number) => unit.repeat(Math.max(1, Math.floor(count)))

/** Nesting depth of a construct whose levels take `perLevel` characters each, to fill `bytes`. */
const levels = (bytes: number, perLevel: number) => Math.max(1, Math.floor(bytes / perLevel))

/** The adversarial pages, each about `bytes` characters long (list nesting is quadratic in depth: its depth is the square root). */
export const adversarialCases = (bytes: number): ReadonlyArray<AdversarialCase> => {
  const listDepth = Math.max(1, Math.floor(Math.sqrt(bytes)))
  return [
    { name: "brackets", markdown: `${times("[", bytes / 2)}x${times("]", bytes / 2)}` },
    { name: "open-brackets", markdown: `${times("[", bytes)}x` },
    { name: "links", markdown: `${times("[", levels(bytes, 5))}x${times("](u)", levels(bytes, 5))}` },
    { name: "images", markdown: `${times("![", levels(bytes, 6))}x${times("](u)", levels(bytes, 6))}` },
    { name: "reference-links", markdown: `${times("[", levels(bytes, 4))}x${times("][a]", levels(bytes, 4))}\n\n[a]: /u\n` },
    { name: "emphasis", markdown: `${times("*_", levels(bytes, 4))}x${times("_*", levels(bytes, 4))}` },
    { name: "emphasis-runs", markdown: times("*a _b ", levels(bytes, 6)) },
    { name: "strikethrough", markdown: `${times("~~", levels(bytes, 4))}x${times("~~", levels(bytes, 4))}` },
    { name: "code-spans", markdown: Array.from({ length: levels(bytes, 40) }, (_, i) => `${"`".repeat((i % 30) + 1)}a`).join(" ") },
    { name: "code-spans-unmatched", markdown: Array.from({ length: Math.floor(Math.sqrt(2 * bytes)) }, (_, i) => `${"`".repeat(i + 1)}a`).join(" ") },
    { name: "list", markdown: Array.from({ length: listDepth }, (_, i) => `${"  ".repeat(i)}- x`).join("\n") },
    { name: "flat-list-markers", markdown: `${times("- ", bytes / 2)}x` },
    { name: "ordered-list", markdown: Array.from({ length: listDepth }, (_, i) => `${"   ".repeat(i)}1. x`).join("\n") },
    { name: "blockquote", markdown: `${times(">", bytes)} x` },
    { name: "blockquote-list", markdown: `${times("> - ", levels(bytes, 4))}x` },
    { name: "hints", markdown: `${times("{% hint style=\"info\" %}\n", levels(bytes, 38))}x\n${times("{% endhint %}\n", levels(bytes, 38))}` },
    { name: "tabs", markdown: `${times("{% tabs %}\n{% tab title=\"a\" %}\n", levels(bytes, 50))}x\n${times("{% endtab %}\n{% endtabs %}\n", levels(bytes, 50))}` },
    { name: "html", markdown: `${times("<div>", levels(bytes, 11))}x${times("</div>", levels(bytes, 11))}` },
    { name: "html-block", markdown: `${times("<div>\n\n", levels(bytes, 14))}x\n\n${times("</div>\n\n", levels(bytes, 14))}` },
    { name: "inline-html", markdown: `a ${times("<span>", levels(bytes, 13))}x${times("</span>", levels(bytes, 13))}` },
    { name: "table", markdown: `${times("| a ", levels(bytes, 8))}|\n${times("| - ", levels(bytes, 8))}|\n${times("| [x ", levels(bytes, 8))}|\n` },
    { name: "table-rows", markdown: `| a | b |\n| - | - |\n${times("| [a | *b |\n", levels(bytes, 11))}` },
    {
      name: "definitions",
      markdown: `${Array.from({ length: levels(bytes, 24) }, (_, i) => `[d${i}]: /u${i}`).join("\n")}\n\n${Array.from({ length: levels(bytes, 24) }, (_, i) => `[d${i}]`).join(" ")}`
    },
    { name: "definition-labels", markdown: `${times("[", levels(bytes, 2))}a${times("]", levels(bytes, 2))}: /u\n` },
    { name: "expandable", markdown: `${times("<details><summary>s</summary>\n\n", levels(bytes, 36))}x\n\n${times("</details>\n\n", levels(bytes, 36))}` }
  ]
}

/** The classic case of the issue: `[` × n, `x`, `]` × n (2n + 1 characters). */
export const nestedBrackets = (depth: number): string => `${"[".repeat(depth)}x${"]".repeat(depth)}`

/** A list nested `depth` levels deep (its size grows with the square of the depth). */
export const nestedList = (depth: number): string => Array.from({ length: depth }, (_, i) => `${"  ".repeat(i)}- x`).join("\n")

/** `depth` nested blockquotes. */
export const nestedQuotes = (depth: number): string => `${">".repeat(depth)} x`

/** `depth` nested GitBook hints. */
export const nestedHints = (depth: number): string => `${"{% hint style=\"info\" %}\n".repeat(depth)}x\n${"{% endhint %}\n".repeat(depth)}`
