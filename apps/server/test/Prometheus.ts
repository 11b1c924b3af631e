/** A strict reader of Prometheus's text exposition format (0.0.4), for the tests of `/metrics` and the worker's. */
import { assert } from "@effect/vitest"

export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y
const typeLine = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/

const parseValue = (text: string): number =>
  text === "+Inf" ? Infinity : text === "-Inf" ? -Infinity : text === "NaN" ? NaN : Number(text)

/** Every sample of `text`; fails the test on a line that is not the format, or a sample whose family has no `# TYPE` before it. */
export const parse = (text: string): ReadonlyArray<Sample> => {
  assert.isTrue(text.endsWith("\n"), "the exposition ends with a newline")
  const types = new Map<string, string>()
  const samples: Array<Sample> = []
  for (const line of text.slice(0, -1).split("\n")) {
    if (line.startsWith("# HELP ")) continue
    const type = typeLine.exec(line)
    if (type !== null) {
      assert.isFalse(types.has(type[1]!), `one TYPE line for ${type[1]}`)
      types.set(type[1]!, type[2]!)
      continue
    }
    const match = sampleLine.exec(line)
    assert.isNotNull(match, `a sample line: ${JSON.stringify(line)}`)
    const [, name, labelText = "", value] = match!
    const labels: Record<string, string> = {}
    label.lastIndex = 0
    while (label.lastIndex < labelText.length) {
      const found = label.exec(labelText)
      assert.isNotNull(found, `labels of ${JSON.stringify(line)}`)
      labels[found![1]!] = found![2]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c))
    }
    const family = name!.replace(/_(bucket|sum|count)$/, "")
    assert.isTrue(types.has(name!) || types.has(family), `a TYPE line before ${name}`)
    const parsed = parseValue(value!)
    assert.isFalse(Number.isNaN(parsed) && value !== "NaN", `a number: ${JSON.stringify(line)}`)
    samples.push({ name: name!, labels, value: parsed })
  }
  return samples
}

/** The value of the sample named `name` whose labels include `labels` (undefined: none). */
export const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Record<string, string> = {}): number | undefined =>
  samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value
