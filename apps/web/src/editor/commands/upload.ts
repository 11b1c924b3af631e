/**
 * Images pasted or dropped into the editor: each is handed to `upload` (which stores it and inserts a figure);
 * other files and text go on to ProseMirror as usual.
 */
import { Extension } from "@tiptap/core"
import type { Node as PMNode, Schema } from "@tiptap/pm/model"
import { Plugin, PluginKey } from "@tiptap/pm/state"

/** The largest file `insert_files` takes: 1 MiB. */
export const maxUploadBytes = 1 << 20

/** A size in words: `1.4 MB`, `320 KB`. */
export const describeSize = (bytes: number): string =>
  bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`

/** Why `file` cannot be uploaded, in plain words, or undefined when it can. */
export const uploadProblem = (file: { readonly name: string; readonly size: number; readonly type: string }): string | undefined => {
  if (!file.type.startsWith("image/")) return `“${file.name}” is not an image.`
  if (file.size > maxUploadBytes) return `“${file.name}” is ${describeSize(file.size)}; an image can be at most 1 MB. Make it smaller and try again.`
  return undefined
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

/** `upload(file, pos)`: `pos` is where a file was dropped, undefined for a paste (at the cursor). */
export const imageDrop = (upload: (file: File, pos: number | undefined) => void) =>
  Extension.create({
    name: "quireImageDrop",
    addProseMirrorPlugins: () => [
      new Plugin({
        key: new PluginKey("quireImageDrop"),
        props: {
          handlePaste: (_view, event) => {
            const files = imagesOf(event.clipboardData?.files)
            if (files.length === 0) return false
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
