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

/** The `src` of every `<img>` of pasted HTML that lives on another site (http or https), in order, once each. */
export const externalImages = (html: string): Array<string> => {
  const doc = new DOMParser().parseFromString(html, "text/html")
  const srcs = Array.from(doc.querySelectorAll("img[src]"), (img) => img.getAttribute("src") ?? "")
    .filter((src) => /^https?:\/\//i.test(src) && !src.startsWith(`${location.origin}/`))
  return [...new Set(srcs)]
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
 * `importImages(srcs)`: after HTML holding images of other sites is pasted (the schema keeps no
 * `<img>` of pasted HTML: the images come back as figures that `importImages` inserts).
 */
export const imageDrop = (upload: (file: File, pos: number | undefined) => void, importImages: (srcs: ReadonlyArray<string>) => void) =>
  Extension.create({
    name: "quireImageDrop",
    addProseMirrorPlugins: () => [
      new Plugin({
        key: new PluginKey("quireImageDrop"),
        props: {
          handlePaste: (_view, event) => {
            const files = imagesOf(event.clipboardData?.files)
            if (files.length === 0) {
              const srcs = externalImages(event.clipboardData?.getData("text/html") ?? "")
              // After ProseMirror has pasted the rest, at the cursor it leaves.
              if (srcs.length > 0) setTimeout(() => importImages(srcs), 0)
              return false
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
