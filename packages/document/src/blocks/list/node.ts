/** Lists: the marker, its spacing and tightness as written are attributes, so an edited list keeps its style. */
import { BulletList as BaseBullet, ListItem as BaseItem, OrderedList as BaseOrdered, TaskItem as BaseTaskItem, TaskList as BaseTaskList } from "@tiptap/extension-list"
import { attr, sourceAttr } from "../shared/attrs.ts"

const listStyle = () => ({ ...sourceAttr, indent: attr(0), spacing: attr(1), tight: attr(true) })

export const BulletList = BaseBullet.extend({
  content: "listItem+",
  addAttributes() {
    return { ...this.parent?.(), ...listStyle(), marker: attr("-") }
  }
})

export const OrderedList = BaseOrdered.extend({
  content: "listItem+",
  addAttributes() {
    return { ...this.parent?.(), ...listStyle(), delimiter: attr("."), numbering: attr<"increment" | "same">("increment") }
  }
})

export const ListItem = BaseItem.extend({
  content: "block+",
  addAttributes() {
    return { ...this.parent?.(), ...sourceAttr, spacing: attr<number | null>(null), indent: attr<number | null>(null) }
  }
})

export const TaskList = BaseTaskList.extend({
  content: "taskItem+",
  addAttributes() {
    return { ...this.parent?.(), ...listStyle(), marker: attr("-") }
  }
})

export const TaskItem = BaseTaskItem.extend({
  content: "block+",
  addAttributes() {
    return { ...this.parent?.(), ...sourceAttr, spacing: attr<number | null>(null), indent: attr<number | null>(null), checkChar: attr("x") }
  }
}).configure({ nested: true })
