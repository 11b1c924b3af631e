import { liquidAtomView } from "../shared/liquid-view.ts"

export const embedView = liquidAtomView("Embed", "url")
