/**
 * A Notion workspace exported as "Markdown & CSV" as an import tree: `Page <id>.md` beside a folder
 * `Page <id>/` holding its sub-pages and images; a database is `Name <id>.csv` (or `_all.csv`) and
 * a folder of its rows' pages. Ids leave the titles, callouts (`<aside>`) become hints, a database
 * becomes a page with its table, its rows' pages under it.
 */
import type { ArchiveFiles } from "./Archive.ts"
import type { ImportTree, TreeAsset, TreePage } from "./ImportTree.ts"
import { basename, hint, isImage, type Resolver, rewriteMarkdown } from "./Links.ts"
import { splitMarkdown } from "./MarkdownFolder.ts"

const decoder = new TextDecoder("utf-8")
const text = (bytes: Uint8Array) => decoder.decode(bytes).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n")

/** ` 0123456789abcdef0123456789abcdef` at the end of a Notion name. */
const idSuffix = /\s+[0-9a-f]{32}$/i

/** A Notion file or folder name without its id (and extension). */
export const notionName = (name: string): string => name.replace(/(_all)?\.(md|csv)$/i, "").replace(idSuffix, "").trim()

/** Whether the files look like a Notion export: names ending in 32 hexadecimal digits. */
export const isNotionExport = (files: ArchiveFiles): boolean =>
  [...files.keys()].some((path) => /\s[0-9a-f]{32}(_all)?\.(md|csv)$/i.test(path))

const emojiStyle = (emoji: string): "info" | "success" | "warning" | "danger" =>
  /⚠|🚧|🔶/.test(emoji) ? "warning" : /❗|🚨|⛔|🛑|❌/.test(emoji) ? "danger" : /✅|👍|🎉|✔/.test(emoji) ? "success" : "info"

/** Notion's callouts (`<aside>` with a leading emoji) as hints. */
export const calloutsToHints = (markdown: string): string =>
  markdown.replace(/<aside>\s*([\s\S]*?)\s*<\/aside>/g, (_m, body: string) => {
    const emoji = /^(\p{Extended_Pictographic}\uFE0F?)\s*/u.exec(body)
    return hint(emojiStyle(emoji?.[1] ?? ""), emoji === null ? body : body.slice(emoji[0].length))
  })

/** The properties that open a page (`Status: Done` lines, as Notion writes them) as a list, which keeps them one a line. */
export const propertyList = (body: string): string => {
  const block = /^(?:[^\n:#>*|`-][^\n:]{0,60}: [^\n]*\n?)+/.exec(body)
  if (block === null) return body
  const items = block[0].trim().split("\n").map((line) => {
    const at = line.indexOf(": ")
    return `- **${line.slice(0, at).trim()}:** ${line.slice(at + 2).trim()}`
  })
  return `${items.join("\n")}\n${body.slice(block[0].length)}`
}

/** A CSV file's rows (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes). */
export const parseCsv = (source: string): ReadonlyArray<ReadonlyArray<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (quoted) {
      if (c === "\"" && source[i + 1] === "\"") {
        field += "\""
        i++
      } else if (c === "\"") quoted = false
      else field += c
    } else if (c === "\"") quoted = true
    else if (c === ",") {
      row.push(field)
      field = ""
    } else if (c === "\n") {
      row.push(field)
      rows.push(row)
      row = []
      field = ""
    } else field += c
  }
  if (field !== "" || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ""))
}

const cell = (value: string) => value.replace(/\|/g, "\\|").replace(/\n+/g, "<br>").trim()

/** A markdown table of CSV rows, the first row its header. */
export const csvTable = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const [header, ...body] = rows
  if (header === undefined) return ""
  const width = header.length
  const line = (cells: ReadonlyArray<string>) => `| ${Array.from({ length: width }, (_, i) => cell(cells[i] ?? "")).join(" | ")} |`
  return [line(header), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n")
}

export const notionTree = (files: ArchiveFiles): ImportTree => {
  // A page or database, by its path without extension (the folder of its children has that path).
  const pageFiles = new Map<string, string>()
  const csvFiles = new Map<string, string>()
  for (const path of files.keys()) {
    if (/\.md$/i.test(path)) pageFiles.set(path.replace(/\.md$/i, ""), path)
    else if (/_all\.csv$/i.test(path)) csvFiles.set(path.replace(/_all\.csv$/i, ""), path)
    else if (/\.csv$/i.test(path) && !csvFiles.has(path.replace(/\.csv$/i, ""))) csvFiles.set(path.replace(/\.csv$/i, ""), path)
  }
  const resolver: Resolver = {
    page: (path) => {
      const stem = path.replace(/(_all)?\.(md|csv)$/i, "")
      return pageFiles.get(stem) ?? csvFiles.get(stem)
    },
    file: (path) => files.has(path) && !/\.(md|csv)$/i.test(path)
  }
  const stems = [...new Set([...pageFiles.keys(), ...csvFiles.keys()])]
  const parentOf = (stem: string) => (stem.includes("/") ? stem.slice(0, stem.lastIndexOf("/")) : "")
  const build = (parent: string): Array<TreePage> =>
    stems
      .filter((stem) => parentOf(stem) === parent)
      .sort((a, b) => notionName(basename(a)).localeCompare(notionName(basename(b)), "en", { numeric: true }))
      .map((stem): TreePage => {
        const children = build(stem)
        const md = pageFiles.get(stem)
        if (md !== undefined) {
          const split = splitMarkdown(text(files.get(md)!))
          return { key: md, title: split.title ?? notionName(basename(stem)), markdown: rewriteMarkdown(calloutsToHints(propertyList(split.body)), md, resolver), children }
        }
        const csv = csvFiles.get(stem)!
        return { key: csv, title: notionName(basename(stem)), markdown: csvTable(parseCsv(text(files.get(csv)!))), children }
      })
  const assets = new Map<string, TreeAsset>()
  for (const [path, bytes] of files) if (!/\.(md|csv)$/i.test(path) && (isImage(path) || resolver.file(path))) assets.set(path, { name: basename(path), bytes })
  return { pages: build(""), assets }
}
