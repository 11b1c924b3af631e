import { liquidAtomView } from "../shared/liquid-view.ts"

export const contentRefView = liquidAtomView("Page link", "url")
