import { titledView } from "../shared/titled-view.ts"

export const tabView = titledView("title", "Tab title")
