/**
 * Renders pages of markdown to a PDF with pdfkit: a title line, then each page (in the order
 * given) under its title, its markdown drawn from the remark syntax tree. Images are PNG or JPEG
 * bytes found by `image`; any other image is replaced by its alt text. Text is drawn in embedded
 * Unicode fonts, each character in the first that has it (Fonts.ts), so non-Latin scripts and
 * emoji render and can be copied. The output depends only on the input (no clock), so rendering
 * the same content twice gives the same bytes.
 */
import { Effect, Option } from "effect"
import type * as Mdast from "mdast"
import { toString } from "mdast-util-to-string"
import PDFDocument from "pdfkit"
import { Errors } from "@quire/kernel"
import {
  type FileNode,
  flattenPages,
  imageDimensions,
  type Revision,
  type RevisionPage,
  type RevisionReusableContent,
  withIncludes
} from "@quire/content"
import { headingTitle, parseMarkdown } from "@quire/markdown"
import { type FontName, type Fonts, fontFiles } from "./Fonts.ts"

export interface PdfPage {
  readonly title: string
  readonly markdown: string
  /** 0 for a top-level page: subpages get smaller titles. */
  readonly depth: number
}

export interface PdfInput {
  readonly title: string
  readonly subtitle?: string | undefined
  readonly pages: ReadonlyArray<PdfPage>
  /** The bytes of an image by its URL in the markdown (e.g. `/files/<fileId>`); none when unknown. */
  readonly image: (url: string) => Effect.Effect<Option.Option<Uint8Array>>
  /** Recorded as the document's creation date (fixed, so the bytes are reproducible). */
  readonly createdAt?: Date | undefined
  /** Uncompressed content streams (tests read the text). */
  readonly compress?: boolean | undefined
  /** The renderer's fonts (`makeFonts`), parsed once for all its PDFs. */
  readonly fonts: Fonts
}


const headingSizes: Record<number, number> = { 1: 20, 2: 16, 3: 14, 4: 12, 5: 11, 6: 11 }
const bodySize = 11
const linkColor = "#1d4ed8"
const textColor = "#111827"
const mutedColor = "#4b5563"
const codeBackground = "#f3f4f6"
const listIndent = 18

/** A font for pdfkit: the fontkit font Fonts.ts parsed once. */
const fontSource = (fonts: Fonts, name: FontName) => fonts.load(name).font as unknown as PDFKit.Mixins.PDFFontSource

/** An image is drawn when it is a PNG or a JPEG (what pdfkit embeds). */
const isDrawable = (bytes: Uint8Array): boolean =>
  (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) ||
  (bytes[0] === 0xff && bytes[1] === 0xd8)

const isAbsolute = (url: string): boolean => /^(https?:|mailto:)/i.test(url)

interface Run {
  readonly text: string
  readonly bold: boolean
  readonly italic: boolean
  readonly code: boolean
  readonly link: string | undefined
}

interface Style {
  readonly bold: boolean
  readonly italic: boolean
  readonly link: string | undefined
}

const plain: Style = { bold: false, italic: false, link: undefined }

type Inline = Mdast.PhrasingContent

/** Inline content as runs of one style; images are cut out as their own items. */
const runsOf = (
  nodes: ReadonlyArray<Inline>,
  style: Style,
  out: Array<Run | Mdast.Image>
): Array<Run | Mdast.Image> => {
  for (const node of nodes) {
    switch (node.type) {
      case "text":
        out.push({ text: node.value, ...style, code: false })
        break
      case "inlineCode":
        out.push({ text: node.value, ...style, code: true })
        break
      case "strong":
        runsOf(node.children, { ...style, bold: true }, out)
        break
      case "emphasis":
        runsOf(node.children, { ...style, italic: true }, out)
        break
      case "delete":
        runsOf(node.children, style, out)
        break
      case "link":
        runsOf(node.children, { ...style, link: isAbsolute(node.url) ? node.url : undefined }, out)
        break
      case "linkReference":
        runsOf(node.children, style, out)
        break
      case "break":
        out.push({ text: "\n", ...style, code: false })
        break
      case "image":
        out.push(node)
        break
      case "imageReference":
        if (node.alt) out.push({ text: node.alt, ...style, italic: true, code: false })
        break
      case "html":
        out.push({ text: node.value, ...style, code: true })
        break
      default:
        if ("children" in node && Array.isArray(node.children)) runsOf(node.children as Array<Inline>, style, out)
        else if ("value" in node && typeof node.value === "string") out.push({ text: node.value, ...style, code: false })
    }
  }
  return out
}

const fontOf = (run: Run): FontName =>
  run.code ? "mono" : run.bold ? (run.italic ? "boldItalic" : "bold") : run.italic ? "italic" : "regular"

/** A run of text in one style, before it is cut by font. */
interface Piece {
  readonly text: string
  readonly font: FontName
  readonly size: number
  readonly color: string
  readonly link?: string | undefined
}

/** Every image URL of a tree, to fetch before drawing (drawing is synchronous). */
const imageUrls = (node: Mdast.Nodes, out: Set<string>): Set<string> => {
  if (node.type === "image") out.add(node.url)
  if ("children" in node) for (const child of node.children) imageUrls(child, out)
  return out
}

class Renderer {
  constructor(
    readonly doc: PDFKit.PDFDocument,
    readonly images: ReadonlyMap<string, Uint8Array>,
    readonly fonts: Fonts
  ) {}

  get left() {
    return this.doc.page.margins.left
  }

  get width() {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right
  }

  get bottom() {
    return this.doc.page.height - this.doc.page.margins.bottom
  }

  ensureSpace(height: number) {
    if (this.doc.y + height > this.bottom) this.doc.addPage()
  }

  gap(points: number) {
    this.doc.y += points
  }

  /** Inline content at `indent`, wrapping within the page; images become blocks of their own. */
  inline(nodes: ReadonlyArray<Inline>, indent: number, size: number, base: Style = plain, color = textColor) {
    const items = runsOf(nodes, base, [])
    let line: Array<Run> = []
    const flush = () => {
      const runs = line.filter((run) => run.text.length > 0)
      line = []
      if (runs.length === 0) return
      this.ensureSpace(size * 1.4)
      this.write(
        runs.map((run) => ({
          text: run.text,
          font: fontOf(run),
          size: run.code ? size * 0.95 : size,
          color: run.link ? linkColor : color,
          link: run.link
        })),
        indent,
        this.doc.y
      )
    }
    for (const item of items) {
      if ("type" in item) {
        flush()
        this.image(item, indent)
      } else line.push(item)
    }
    flush()
  }

  image(node: Mdast.Image, indent: number) {
    const bytes = this.images.get(node.url)
    const size = bytes === undefined || !isDrawable(bytes) ? undefined : imageDimensions(bytes)
    if (bytes === undefined || size === undefined || size.width === 0 || size.height === 0) {
      if (node.alt) this.inline([{ type: "emphasis", children: [{ type: "text", value: `[${node.alt}]` }] }], indent, bodySize, plain, mutedColor)
      return
    }
    const maxWidth = this.width - indent
    const maxHeight = (this.bottom - this.doc.page.margins.top) * 0.6
    const scale = Math.min(1, maxWidth / size.width, maxHeight / size.height)
    const height = size.height * scale
    this.ensureSpace(height)
    const y = this.doc.y
    try {
      this.doc.image(Buffer.from(bytes), this.left + indent, y, { width: size.width * scale, height })
      this.doc.y = y + height + 4
    } catch {
      // Bytes that look like an image but do not decode: the alt text stands in.
      this.doc.y = y
      if (node.alt) this.inline([{ type: "text", value: `[${node.alt}]` }], indent, bodySize, plain, mutedColor)
    }
  }

  /**
   * Pieces of text on one flow from (`indent`, `y`), wrapping within the page: each cut into runs
   * of one font, drawn as one paragraph (`continued`).
   */
  write(pieces: ReadonlyArray<Piece>, indent: number, y: number, lineGap = 2, width = this.width - indent) {
    const runs = pieces.flatMap((piece) => this.fonts.segments(piece.text, piece.font).map((segment) => ({ ...piece, ...segment })))
    runs.forEach((run, i) => {
      this.doc.font(run.font).fontSize(run.size).fillColor(run.color)
      const options: PDFKit.Mixins.TextOptions = {
        continued: i < runs.length - 1,
        link: run.link ?? null,
        underline: run.link !== undefined,
        lineGap
      }
      if (i === 0) this.doc.text(run.text, this.left + indent, y, { ...options, width })
      else this.doc.text(run.text, options)
    })
    this.doc.fillColor(textColor)
  }

  heading(text: string, size: number, indent = 0) {
    this.ensureSpace(size * 2.5)
    this.gap(size * 0.4)
    this.write([{ text, font: "bold", size, color: textColor }], indent, this.doc.y, 0)
    this.gap(size * 0.3)
  }

  code(value: string, indent: number) {
    const size = 9
    const pad = 6
    const x = this.left + indent
    const width = this.width - indent
    this.gap(2)
    const lines = value.replace(/\t/g, "  ").split("\n")
    lines.forEach((text, i) => {
      const line = text.length === 0 ? " " : text
      this.doc.font("mono").fontSize(size)
      const height = this.doc.heightOfString(line, { width: width - 2 * pad })
      const top = i === 0 ? pad : 0
      const bottom = i === lines.length - 1 ? pad : 0
      this.ensureSpace(height + top + bottom)
      const y = this.doc.y
      this.doc.rect(x, y, width, height + top + bottom).fill(codeBackground)
      this.write([{ text: line, font: "mono", size, color: textColor }], indent + pad, y + top, 0, width - 2 * pad)
      this.doc.y = y + top + height + bottom
    })
    this.gap(6)
  }

  blocks(nodes: ReadonlyArray<Mdast.RootContent>, indent: number) {
    for (const node of nodes) this.block(node, indent)
  }

  block(node: Mdast.RootContent, indent: number) {
    switch (node.type) {
      case "heading":
        this.heading(toString(node), headingSizes[node.depth] ?? bodySize, indent)
        break
      case "paragraph":
        this.inline(node.children, indent, bodySize)
        this.gap(6)
        break
      case "code":
        this.code(node.value, indent)
        break
      case "blockquote": {
        const page = this.doc.page
        const top = this.doc.y
        this.blocks(node.children, indent + 14)
        if (this.doc.page === page) {
          this.doc.save().rect(this.left + indent + 2, top, 3, Math.max(0, this.doc.y - top - 6)).fill("#d1d5db").restore()
        }
        break
      }
      case "list":
        this.list(node, indent)
        this.gap(4)
        break
      case "thematicBreak": {
        this.ensureSpace(12)
        const y = this.doc.y + 4
        this.doc.save().moveTo(this.left + indent, y).lineTo(this.left + this.width, y).lineWidth(0.5).stroke("#9ca3af").restore()
        this.doc.y = y + 8
        break
      }
      case "table":
        for (const row of node.children) {
          const cells: Array<Inline> = []
          row.children.forEach((cell, i) => {
            if (i > 0) cells.push({ type: "text", value: "  |  " })
            cells.push(...cell.children)
          })
          this.inline(row === node.children[0] ? [{ type: "strong", children: cells }] : cells, indent, 10)
        }
        this.gap(6)
        break
      case "html":
        this.code(node.value, indent)
        break
      case "definition":
      case "footnoteDefinition":
      case "yaml":
        break
      default:
        if ("children" in node && Array.isArray(node.children)) this.blocks(node.children as Array<Mdast.RootContent>, indent)
    }
  }

  list(node: Mdast.List, indent: number) {
    const start = node.start ?? 1
    node.children.forEach((item, i) => {
      const marker = node.ordered ? `${start + i}.` : item.checked === true ? "[x]" : item.checked === false ? "[ ]" : "\u2022"
      this.ensureSpace(bodySize * 1.4)
      const y = this.doc.y
      this.doc.font("regular").fontSize(bodySize).fillColor(textColor)
        .text(marker, this.left + indent, y, { width: listIndent, lineBreak: false })
      this.doc.y = y
      const [first, ...rest] = item.children
      if (first?.type === "paragraph") {
        this.inline(first.children, indent + listIndent, bodySize)
        this.gap(2)
        this.blocks(rest, indent + listIndent)
      } else {
        this.blocks(item.children, indent + listIndent)
      }
    })
  }
}

/** The PDF of `input`'s pages. */
export const render = Effect.fn("Pdf.render")(function*(input: PdfInput) {
  const trees = input.pages.map((page) => ({ page, tree: parseMarkdown(page.markdown) }))
  const urls = new Set<string>()
  for (const { tree } of trees) imageUrls(tree, urls)
  const images = new Map<string, Uint8Array>()
  for (const url of urls) {
    const bytes = yield* input.image(url)
    if (Option.isSome(bytes)) images.set(url, bytes.value)
  }
  return yield* Effect.promise(() =>
    new Promise<Uint8Array>((resolve, reject) => {
      const doc = new PDFDocument({
        size: "A4",
        margin: 56,
        compress: input.compress ?? true,
        info: { Title: input.title, Producer: "Quire", Creator: "Quire", CreationDate: input.createdAt ?? new Date(0) },
        // Instead of Helvetica. The fonts are parsed once per process: pdfkit takes a fontkit font as
        // it is (its types say only file names and bytes), and the shaping caches carry over.
        font: fontSource(input.fonts, "regular") as unknown as string
      })
      for (const name of Object.keys(fontFiles) as Array<FontName>) doc.registerFont(name, fontSource(input.fonts, name))
      const chunks: Array<Buffer> = []
      doc.on("data", (chunk: Buffer) => chunks.push(chunk))
      doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))))
      doc.on("error", reject)
      try {
        const renderer = new Renderer(doc, images, input.fonts)
        renderer.write([{ text: input.title, font: "bold", size: 26, color: textColor }], 0, doc.y)
        if (input.subtitle !== undefined) {
          doc.moveDown(0.5)
          renderer.write([{ text: input.subtitle, font: "regular", size: 16, color: mutedColor }], 0, doc.y)
        }
        for (const { page, tree } of trees) {
          doc.addPage()
          renderer.heading(page.title, Math.max(16, 24 - page.depth * 2))
          // A leading heading that repeats the title is the title (GitBook's markdown export writes it),
          // read by the markdown model's title rule: the first block after the frontmatter.
          const lead = tree.children.findIndex((node) => node.type !== "yaml")
          const first = tree.children[lead]
          const repeatsTitle = first?.type === "heading" && first.depth === 1 && headingTitle(first) === page.title.trim()
          renderer.blocks(repeatsTitle ? tree.children.filter((_, index) => index !== lead) : tree.children, 0)
        }
        doc.end()
      } catch (error) {
        reject(error)
      }
    })
  )
})

/** The file an image URL of the markdown points at: `/files/<id>` (or the bare id or name). */
export const fileOfImage = (files: ReadonlyArray<FileNode>, url: string): FileNode | undefined => {
  const id = /^\/?files\/([^/?#]+)/.exec(url)?.[1] ?? url
  return files.find((f) => f.id === id) ?? files.find((f) => f.name === decodeURIComponent(url.replace(/^\.?\//, "")))
}

/** Which pages of a revision a PDF shows: all, or `page` and its subpages (only `page` with `only`). */
export interface PageSelection {
  readonly page?: string | undefined
  readonly only?: boolean | undefined
}

export interface RevisionPdfInput extends PageSelection {
  readonly title: string
  readonly subtitle?: string | undefined
  readonly revision: Revision
  /** A page of the revision with its markdown (SpaceContent's `pageIn`). */
  readonly pageIn: (revision: Revision, pageId: string) => Effect.Effect<RevisionPage, Errors.NotFound>
  /** The bytes of a blob (the BlobStore's `get`). */
  readonly blob: (hash: string) => Effect.Effect<Option.Option<Uint8Array>>
  /**
   * A reusable content of the revision with its markdown (SpaceContent's `reusableContentIn`):
   * what a page's includes show.
   */
  readonly reusableContentIn: (revision: Revision, reusableContentId: string) => Effect.Effect<RevisionReusableContent, Errors.NotFound>
}

/** The markdown of `revision`'s reusable contents by document hash, read through `input.reusableContentIn`. */
const reusableDocuments = (input: RevisionPdfInput) => (hashes: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, string>> =>
  Effect.gen(function*() {
    const read = new Map<string, string>()
    for (const hash of hashes) {
      const node = input.revision.reusableContents?.find((candidate) => candidate.document === hash)
      if (node === undefined) continue
      const found = yield* Effect.option(input.reusableContentIn(input.revision, node.id))
      if (Option.isSome(found)) read.set(hash, found.value.markdown)
    }
    return read
  })

/** The PDF of a revision's pages in tree order; NotFound for a `page` the revision does not have. */
export const renderRevision = Effect.fn("Pdf.renderRevision")(function*(input: RevisionPdfInput, fonts: Fonts) {
  const revision = input.revision
  const all = flattenPages(revision.pages)
  let selected = all
  if (input.page !== undefined) {
    const root = all.find((p) => p.page.id === input.page)
    if (root === undefined) return yield* new Errors.NotFound({ resource: "Page", id: input.page })
    selected = input.only === true ? [root] : flattenPages([root.page])
  }
  const documents = reusableDocuments(input)
  const pages = yield* Effect.forEach(selected, (entry) =>
    Effect.gen(function*() {
      const stored = entry.page.document === undefined
        ? ""
        : (yield* input.pageIn(revision, entry.page.id).pipe(Effect.orDie)).markdown ?? ""
      // The reusable contents the page includes, in place of the tags, as a reader sees them.
      const markdown = yield* withIncludes(stored, revision.reusableContents, entry.page.git?.path, documents)
      return { title: entry.page.title, markdown, depth: entry.path.split("/").length - 1 }
    }))
  return yield* render({
    title: input.title,
    subtitle: input.subtitle,
    pages,
    fonts,
    createdAt: revision.createdAt,
    image: (url) => {
      const file = fileOfImage(revision.files, url)
      return file === undefined ? Effect.succeedNone : input.blob(file.blob)
    }
  })
})
