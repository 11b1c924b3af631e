/**
 * The production build whose server and worker the process tests run (`@quire/testkit/ProductionBuild`),
 * made or waited for before any test's clock starts: in `pnpm test` another suite may be building it.
 */
import { fileURLToPath } from "node:url"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

export default async function setup() {
  await ProductionBuild.ensure(fileURLToPath(new URL("../../../", import.meta.url)))
}
