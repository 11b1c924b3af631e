import { liquidAtom } from "../shared/liquid-atom.ts"

export const embed = liquidAtom("embed", "embed", "optional")
