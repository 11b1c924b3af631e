/**
 * The production build that the `quire db` and start-up tests run (`@quire/testkit/ProductionBuild`),
 * made or waited for before any test's clock starts: in `pnpm test` another suite may be building
 * it, which takes minutes on a busy two-core machine, and a test that waited inside its own time
 * limit timed out.
 */
import { fileURLToPath } from "node:url"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

export default async function setup() {
  await ProductionBuild.ensure(fileURLToPath(new URL("../../../", import.meta.url)))
}
