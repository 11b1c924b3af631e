/**
 * Files put into the editor: images pasted or dropped are handed to `upload` (which stores them and
 * inserts a figure), images in pasted HTML that live on another site to `importImages` (which copies
 * them into the change request); other files and text go on to ProseMirror as usual.
 */
import { Extension } from "@tiptap/core"
import type { Node as PMNode, Schema } from "@tiptap/pm/model"
import { Plugin, PluginKey } from "@tiptap/pm/state"

export { describeSize, failureOf, UploadFailure, type UploadedFile, type UploadFailureKind, type UploadOptions } from "../uploads.ts"

/** Why `file` cannot be uploaded as an image, in plain words, or undefined when it can. */
export const uploadProblem = (file: { readonly name: string; readonly size: number; readonly type: string }): string | undefined =>
  file.type.startsWith("image/") ? undefined : `“${file.name}” is not an image.`

const isExternal = (src: string): boolean => /^https?:\/\//i.test(src) && !src.startsWith(`${location.origin}/`)

/**
 * Pasted HTML's images that live on another site (http or https: their `src`, in order, once each)
 * and the HTML without them, to paste as usual: they come back as figures, copied.
 */
export const externalImages = (html: string): { readonly srcs: Array<string>; readonly rest: string } => {
  const doc = new DOMParser().parseFromString(html, "text/html")
  const images = Array.from(doc.querySelectorAll("img[src]")).filter((img) => isExternal(img.getAttribute("src") ?? ""))
  const srcs = [...new Set(images.map((img) => img.getAttribute("src")!))]
  images.forEach((img) => img.remove())
  return { srcs, rest: (doc.body.textContent ?? "").trim() === "" ? "" : doc.body.innerHTML }
}

/** GitBook's block image for a stored file: `<figure><img src="/files/<id>" alt=""><figcaption></figcaption></figure>`. */
export const figureFor = (schema: Schema, src: string, alt = ""): PMNode =>
  schema.nodes.figure!.create({
    img: [
      { name: "src", value: src, quote: "\"" },
      { name: "alt", value: alt, quote: "\"" }
    ],
    caption: ""
  })

const imagesOf = (list: FileList | null | undefined): Array<File> => Array.from(list ?? []).filter((f) => f.type.startsWith("image/"))

/**
 * `upload(file, pos)`: `pos` is where a file was dropped, undefined for a paste (at the cursor).
 * `importImages(srcs)`: the images of other sites in pasted HTML, taken out of what is pasted
 * (they would be inline images, which the editor cannot show from the change request's files) and
 * inserted as figures, then copied.
 */
export const imageDrop = (upload: (file: File, pos: number | undefined) => void, importImages: (srcs: ReadonlyArray<string>) => void) =>
  Extension.create({
    name: "quireImageDrop",
    addProseMirrorPlugins: () => [
      new Plugin({
        key: new PluginKey("quireImageDrop"),
        props: {
          handlePaste: (view, event) => {
            const files = imagesOf(event.clipboardData?.files)
            if (files.length === 0) {
              const html = event.clipboardData?.getData("text/html") ?? ""
              const { srcs, rest } = html === "" ? { srcs: [], rest: "" } : externalImages(html)
              if (srcs.length === 0) return false
              // The rest as ProseMirror pastes it (this handler then finds no image in it), the images after it.
              if (rest !== "") view.pasteHTML(rest)
              importImages(srcs)
              return true
            }
            for (const f of files) upload(f, undefined)
            return true
          },
          handleDrop: (view, event) => {
            const files = imagesOf(event.dataTransfer?.files)
            if (files.length === 0) return false
            event.preventDefault()
            const pos = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos
            for (const f of files) upload(f, pos)
            return true
          }
        }
      })
    ]
  })
