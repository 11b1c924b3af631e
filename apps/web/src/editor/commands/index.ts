/** The editor's ways in: slash menu, markdown shortcuts, toolbar commands, link picker, image upload, block handles, the empty line's hint. */
import { Extension, type AnyExtension } from "@tiptap/core"
import { Plugin, PluginKey } from "@tiptap/pm/state"
import { CurrentBlock } from "./current.ts"
import { BlockHandles } from "./handles.ts"
import type { CommandHooks } from "./hooks.ts"
import { Placeholder } from "./placeholder.ts"
import { MarkdownShortcuts } from "./shortcuts.ts"
import { slashMenu } from "./slash.ts"
import { imageDrop } from "./upload.ts"

export { createHooks, type CommandHooks } from "./hooks.ts"
export type { LinkTarget } from "./link-targets.ts"
export type { ReusableCatalog } from "./reusable.ts"
export type { AgentWriter } from "./writer.ts"

/**
 * Mod-K opens the link picker. Its event goes no further: the app's Ctrl/Cmd-K (search) is for outside the text.
 */
const linkKey = (hooks: CommandHooks) =>
  Extension.create({
    name: "quireLinkKey",
    addProseMirrorPlugins: () => [
      new Plugin({
        key: new PluginKey("quireLinkKey"),
        props: {
          handleKeyDown: (_view, event) => {
            if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== "k") return false
            event.stopPropagation()
            hooks.openLinkPicker()
            return true
          }
        }
      })
    ]
  })

export const commandExtensions = (hooks: CommandHooks): Array<AnyExtension> => [
  MarkdownShortcuts,
  slashMenu(() => hooks.pickImage(), () => hooks.reusable, () => (hooks.writer === undefined ? undefined : () => hooks.writeWithAI())),
  imageDrop((file, pos) => hooks.upload(file, pos), (srcs) => hooks.importImages(srcs)),
  linkKey(hooks),
  BlockHandles,
  Placeholder,
  CurrentBlock
]
