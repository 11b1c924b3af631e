/**
 * Word documents' styles on import: a paragraph in Word's Title style is the page's title (the
 * first heading then stays a heading of the page), as a writer who styled it meant. The documents
 * are built here as Word lays them out (content types, relationships, styles, body), so each
 * test says exactly which styles it holds.
 */
import { assert, describe, it } from "@effect/vitest"
import { zipSync } from "fflate"
import { defaultArchiveLimits } from "../../src/importing/Archive.ts"
import { uploadsTree } from "../../src/importing/FileSources.ts"

const text = (value: string) => new TextEncoder().encode(value)
const w = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

/** A paragraph, in a style (its id in styles.xml) or plain. */
const paragraph = (words: string, styleId?: string) =>
  `<w:p>${styleId === undefined ? "" : `<w:pPr><w:pStyle w:val="${styleId}"/></w:pPr>`}<w:r><w:t xml:space="preserve">${words}</w:t></w:r></w:p>`

/** A `.docx` with Word's built-in Title, Subtitle and Heading 1 styles and the body's paragraphs. */
const docx = (...paragraphs: ReadonlyArray<string>) =>
  zipSync({
    "[Content_Types].xml": text(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`),
    "_rels/.rels": text(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`),
    "word/_rels/document.xml.rels": text(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`),
    "word/styles.xml": text(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles ${w}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Subtitle"><w:name w:val="Subtitle"/><w:basedOn w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/></w:style></w:styles>`),
    "word/document.xml": text(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ${w}><w:body>${paragraphs.join("")}<w:sectPr/></w:body></w:document>`)
  })

const page = async (bytes: Uint8Array) => {
  const tree = await uploadsTree([{ name: "handbook.docx", bytes }], "auto", defaultArchiveLimits)
  assert.strictEqual(tree.pages.length, 1)
  return tree.pages[0]!
}

describe("a Word document's Title style", () => {
  it("is the page's title, and the first heading stays a heading of the page", async () => {
    const imported = await page(docx(
      paragraph("Support Handbook", "Title"),
      paragraph("For the on-call team", "Subtitle"),
      paragraph("Escalations", "Heading1"),
      paragraph("Call the lead.")
    ))
    assert.strictEqual(imported.title, "Support Handbook")
    assert.strictEqual(imported.markdown, "_For the on-call team_\n\n# Escalations\n\nCall the lead.")
  })

  it("leaves a document without one titled by its first heading, as before", async () => {
    const imported = await page(docx(paragraph("Escalations", "Heading1"), paragraph("Call the lead.")))
    assert.strictEqual(imported.title, "Escalations")
    assert.strictEqual(imported.markdown, "Call the lead.")
  })

  it("keeps a second Title paragraph as a heading", async () => {
    const imported = await page(docx(paragraph("Part one", "Title"), paragraph("Text."), paragraph("Part two", "Title"), paragraph("More.")))
    assert.strictEqual(imported.title, "Part one")
    assert.strictEqual(imported.markdown, "Text.\n\n# Part two\n\nMore.")
  })
})
