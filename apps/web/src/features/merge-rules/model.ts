/**
 * The merge rules' settings form as data: GitBook's configuration (`inherit`, `none`, `rules`)
 * read into the form's controls, written back in a fixed order, and a refusal's field
 * (`mergeRules.rules[2].users`) placed on the control that made that rule. Pure, so Node tests it.
 */
import type { Organization, Space } from "@quire/api"

export type SpaceRules = Space["mergeRules"]
export type OrganizationRules = Organization["mergeRules"]
type Rule = Extract<SpaceRules, { type: "rules" }>["rules"][number]

/** The rules without settings, as the form offers them, in the order they are written. */
export const plainRules = [
  { rule: "require_at_least_one_review", label: "At least one review of the latest version" },
  { rule: "require_at_least_one_approved_review", label: "At least one approval of the latest version" },
  { rule: "require_all_reviews_approved", label: "Every reviewer approves the latest version (and no review is still asked for)" },
  { rule: "require_up_to_date_change_request", label: "Up to date with main" },
  { rule: "require_change_request_subject", label: "A subject" },
  { rule: "require_change_request_description", label: "A description that says what it changes" },
  { rule: "require_author_to_merge", label: "Only its author merges it" }
] as const

export type PlainRule = (typeof plainRules)[number]["rule"]

export interface CustomRuleForm {
  readonly expression: string
  readonly message: string
}

export interface RulesForm {
  readonly mode: "inherit" | "none" | "rules"
  readonly plain: ReadonlyArray<PlainRule>
  /** Approvals from specific reviewers: none asked, each of them, or one of them. */
  readonly reviewers: "none" | "each" | "one"
  readonly reviewerIds: ReadonlyArray<string>
  readonly bypass: ReadonlyArray<string>
  readonly authorApproves: boolean
  readonly custom: ReadonlyArray<CustomRuleForm>
}

/** The form's controls a refusal may be placed on. */
export type Control = "mode" | "plain" | "reviewers" | "bypass" | "authorApproves" | `custom-${number}-expression` | `custom-${number}-message` | `custom-${number}`

export const formOf = (rules: SpaceRules): RulesForm => {
  const list = rules.type === "rules" ? rules.rules : []
  const users = (name: string) => list.flatMap((r) => (r.rule === name && "users" in r ? r.users : []))
  const each = users("require_specific_reviewers")
  const one = users("require_one_of_specific_reviewers")
  return {
    mode: rules.type,
    plain: plainRules.map((p) => p.rule).filter((name) => list.some((r) => r.rule === name)),
    reviewers: each.length > 0 ? "each" : one.length > 0 ? "one" : "none",
    reviewerIds: each.length > 0 ? each : one,
    bypass: users("allow_bypass"),
    authorApproves: list.some((r) => r.rule === "allow_author_approval"),
    custom: list.flatMap((r) => (r.rule === "custom" ? [{ expression: r.expression, message: r.message ?? "" }] : []))
  }
}

/** The configuration the form says, and for each of its rules the control that made it. */
export const rulesOf = (form: RulesForm): { readonly rules: SpaceRules; readonly controls: ReadonlyArray<Control> } => {
  if (form.mode !== "rules") return { rules: { type: form.mode }, controls: [] }
  const rules: Array<Rule> = []
  const controls: Array<Control> = []
  const add = (rule: Rule, control: Control) => {
    rules.push(rule)
    controls.push(control)
  }
  for (const p of plainRules) if (form.plain.includes(p.rule)) add({ rule: p.rule }, "plain")
  if (form.reviewers !== "none") add({ rule: form.reviewers === "each" ? "require_specific_reviewers" : "require_one_of_specific_reviewers", users: [...form.reviewerIds] }, "reviewers")
  if (form.bypass.length > 0) add({ rule: "allow_bypass", users: [...form.bypass] }, "bypass")
  if (form.authorApproves) add({ rule: "allow_author_approval" }, "authorApproves")
  form.custom.forEach((c, i) => add({ rule: "custom", expression: c.expression, ...(c.message.trim() === "" ? {} : { message: c.message.trim() }) }, `custom-${i}`))
  return { rules: { type: "rules", rules }, controls }
}

/** The control a refusal's field names (`mergeRules.rules[i]…`); undefined when it names none of them. */
export const controlOf = (field: string | undefined, controls: ReadonlyArray<Control>): Control | undefined => {
  if (field === undefined || !field.startsWith("mergeRules")) return undefined
  const match = /^mergeRules\.rules\[(\d+)\](?:\.(\w+))?/.exec(field)
  if (match === null) return field === "mergeRules.type" ? "mode" : undefined
  const control = controls[Number(match[1])]
  if (control === undefined) return undefined
  if (control.startsWith("custom-") && (match[2] === "expression" || match[2] === "message")) return `${control}-${match[2]}` as Control
  return control
}

/** Problems the form finds before asking the server, on their controls. */
export const checkForm = (form: RulesForm): Partial<Record<Control, string>> => {
  if (form.mode !== "rules") return {}
  const found: Partial<Record<Control, string>> = {}
  if (form.reviewers !== "none" && form.reviewerIds.length === 0) found.reviewers = "Pick at least one reviewer, or ask for no specific reviewer."
  form.custom.forEach((c, i) => {
    if (c.expression.trim() === "") found[`custom-${i}-expression`] = "Write an expression, or remove this custom rule."
    else if (c.expression.length > 1024) found[`custom-${i}-expression`] = `At most 1,024 characters; this one has ${c.expression.length}.`
  })
  return found
}
