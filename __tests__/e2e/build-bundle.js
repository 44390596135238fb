// @ts-check
// globalSetup of the end-to-end tests: they run a bundle built from the sources under test, not
// the committed dist/ (`npm run check:dist` keeps that equal to it). Jest runs this only when at
// least one test of the e2e project runs; the build is reused while the sources stay the same.
// A new build runs in the background while the unit tests run (scripts/test-sequencer.cjs starts
// them first); the harness waits for it.
import { join } from 'node:path'
import { startFreshBundle } from '../../scripts/bundle.js'

export default function buildBundle() {
  const { dir, builder } = startFreshBundle({
    progress: (line) => process.stderr.write(`\ne2e: ${line}\n`)
  })
  process.env.E2E_BUNDLE = join(dir, 'index.js')
  if (builder !== undefined) process.env.E2E_BUNDLE_BUILDER = String(builder)
}
