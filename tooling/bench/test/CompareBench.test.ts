/**
 * `pnpm bench --compare` names a better build only when its rounds agree: a difference that one
 * round contradicts is the machine's noise (`unclear`), not a regression or a win.
 */
import { strict as assert } from "node:assert"
import { test } from "node:test"
import { type Figure, table, verdict } from "../src/CompareBench.ts"

const wall = (ref: number, current: number, rounds?: ReadonlyArray<number>): Figure =>
  ({ name: "insert", unit: "ms", higher: false, ref, current, rounds })

test("within 3% neither build is better, whatever its rounds", () => {
  assert.equal(verdict(wall(100, 102, [0.8, 1.3])), "same")
})

test("a build is better when every round favours it or is even", () => {
  assert.equal(verdict(wall(100, 80, [0.75, 0.82, 1.01])), "this tree")
  assert.equal(verdict(wall(100, 125, [1.2, 1.3, 1.1])), "ref")
})

test("a difference that one round contradicts is unclear", () => {
  assert.equal(verdict(wall(126, 150, [1.4, 1.19, 0.7])), "unclear")
})

test("for a figure where higher is better, more is this tree's win", () => {
  const rate: Figure = { name: "req/s", unit: "req/s", higher: true, ref: 1515, current: 1853, rounds: [1.1, 1.3, 1.22] }
  assert.equal(verdict(rate), "this tree")
  assert.equal(verdict({ ...rate, current: 1200, rounds: [0.7, 0.8, 0.85] }), "ref")
})

test("one round, or none recorded, decides by the medians alone", () => {
  assert.equal(verdict(wall(100, 130, [1.3])), "ref")
  assert.equal(verdict(wall(100, 70)), "this tree")
})

test("the table shows each figure's ratio, its spread over the rounds and the verdict", () => {
  const printed = table("2291d8e", [wall(126, 150, [1.4, 1.19, 0.7]), wall(100, 70)]).split("\n")
  assert.deepEqual(printed[0]!.split(/\s{2,}/), ["figure", "unit", "ref 2291d8e", "this tree", "this/ref", "rounds", "better"])
  assert.deepEqual(printed[2]!.split(/\s{2,}/), ["insert", "ms", "126", "150", "1.19", "0.70-1.40", "unclear"])
  assert.deepEqual(printed[3]!.trim().split(/\s{2,}/), ["insert", "ms", "100", "70.0", "0.70", "this tree"])
})
