/** Building the hast the renderer emits. */
import type { Element, ElementContent, Properties } from "hast"

export const element = (tagName: string, properties: Properties, children: Array<ElementContent>): Element => ({
  type: "element", tagName, properties, children
})

export const text = (value: string): ElementContent => ({ type: "text", value })
