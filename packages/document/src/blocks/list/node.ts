/** Lists: the marker, its spacing and tightness as written are attributes, so an edited list keeps its style. */
import { BulletList as BaseBullet, ListItem as BaseItem, OrderedList as BaseOrdered, TaskItem as BaseTaskItem, TaskList as BaseTaskList } from "@tiptap/extension-list"
import { attr, checked, is, sourceAttr } from "../shared/attrs.ts"

/** A list's indentation (0 to 3 spaces, as CommonMark reads a list) and the spaces after its markers (1 to 4). */
const isIndent = is.int(0, 3)
const isSpacing = is.int(1, 4)

const listStyle = () => ({ ...sourceAttr, indent: attr(0, isIndent), spacing: attr(1, isSpacing), tight: attr(true, is.boolean) })
const itemStyle = () => ({ ...sourceAttr, spacing: attr<number | null>(null, is.nullable(isSpacing)), indent: attr<number | null>(null, is.nullable(isIndent)) })

export const BulletList = BaseBullet.extend({
  content: "listItem+",
  addAttributes() {
    return { ...this.parent?.(), ...listStyle(), marker: attr("-", is.oneOf("-", "*", "+")) }
  }
})

export const OrderedList = BaseOrdered.extend({
  content: "listItem+",
  addAttributes() {
    const parent = this.parent?.()
    return {
      ...parent,
      // CommonMark's ordered list numbers have at most nine digits.
      start: checked(parent, "start", is.int(0, 999_999_999)),
      type: checked(parent, "type", is.nullable(is.string(16))),
      ...listStyle(),
      delimiter: attr(".", is.oneOf(".", ")")),
      numbering: attr<"increment" | "same">("increment", is.oneOf("increment", "same"))
    }
  }
})

export const ListItem = BaseItem.extend({
  content: "block+",
  addAttributes() {
    return { ...this.parent?.(), ...itemStyle() }
  }
})

export const TaskList = BaseTaskList.extend({
  content: "taskItem+",
  addAttributes() {
    return { ...this.parent?.(), ...listStyle(), marker: attr("-", is.oneOf("-", "*", "+")) }
  }
})

export const TaskItem = BaseTaskItem.extend({
  content: "block+",
  addAttributes() {
    const parent = this.parent?.()
    return { ...parent, checked: checked(parent, "checked", is.boolean), ...itemStyle(), checkChar: attr("x", is.oneOf("x", "X")) }
  }
}).configure({ nested: true })
