/**
 * How a scan reads its model's answers: a verdict counts only as schema-valid JSON naming a record
 * sent and quoting words the page holds; a topic's name only as a short one-line name. Anything
 * else is no answer, never a failure.
 */
import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import { judgementOf, topicNameOf } from "../src/findings/FindingsModel.ts"

const passages = "Docker\nDocker steps with giraffes.\n\nRun the container on port 8080."

describe("FindingsModel", () => {
  it("reads a verdict quoting the page, fenced or not, whitespace folded", () => {
    const reply = "Here it is:\n```json\n{\"verdict\": \"outdated\", \"quote\": \"Docker  steps with giraffes.\", \"record\": 2, \"why\": \"Zebras since 2.0.\"}\n```"
    assert.deepStrictEqual(judgementOf(reply, passages, 2), Option.some({ verdict: "outdated" as const, quote: "Docker steps with giraffes.", record: 1, why: "Zebras since 2.0." }))
    assert.deepStrictEqual(Option.map(judgementOf("{\"verdict\":\"incorrect\",\"quote\":\"port 8080\",\"record\":1}", passages, 1), (j) => [j.verdict, j.why]), Option.some(["incorrect", ""]))
  })

  it("makes nothing of a current page, a malformed answer, an invented quote or a record not sent", () => {
    for (const reply of [
      "{\"verdict\": \"current\"}",
      "The page is outdated.",
      "{\"verdict\": \"outdated\", \"quote\": 42, \"record\": 1}",
      "{\"verdict\": \"stale\", \"quote\": \"port 8080\", \"record\": 1}",
      "{\"verdict\": \"outdated\", \"quote\": \"port 9090\", \"record\": 1}",
      "{\"verdict\": \"outdated\", \"quote\": \"port 8080\", \"record\": 3}",
      "{\"verdict\": \"outdated\", \"quote\": \"port 8080\", \"record\": 1.5}",
      "{\"verdict\": \"outdated\", \"quote\": \"port 8080\"}",
      "{\"verdict\": \"outdated\", \"quote\": \"8\", \"record\": 1}",
      "{\"verdict\": \"outdated\", \"quote\": \"port 8080\", \"record\": 1"
    ]) assert.isTrue(Option.isNone(judgementOf(reply, passages, 2)), reply)
  })

  it("reads a topic's name, and nothing of a reply that is not one", () => {
    assert.deepStrictEqual(topicNameOf("{\"name\": \"Webhook secret rotation.\"}"), Option.some("Webhook secret rotation"))
    for (const reply of ["Webhook secrets", "{\"name\": \"\"}", `{"name": "${"x".repeat(61)}"}`, "{\"title\": \"Webhooks\"}", "{\"name\": 7}"]) {
      assert.isTrue(Option.isNone(topicNameOf(reply)), reply)
    }
  })
})
