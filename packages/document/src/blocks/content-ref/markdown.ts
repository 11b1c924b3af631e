import { liquidAtom } from "../shared/liquid-atom.ts"

export const contentRef = liquidAtom("content-ref", "contentRef", "required")
