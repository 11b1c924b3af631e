import { groupContainer } from "../shared/container.ts"

export const stepper = groupContainer("stepper", "stepper", "step", "step")
