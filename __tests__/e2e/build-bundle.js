// @ts-check
// globalSetup of the end-to-end tests: they run a bundle of the sources under test. That is the
// committed dist/ when its digest (dist/sources.sha256) is that of the sources as they are, which
// `npm run check:dist` holds it to; otherwise a new build, reused while the sources stay the same.
// Jest runs this only when at least one test of the e2e project runs. A new build runs in the
// background while the unit tests run (scripts/test-sequencer.cjs starts them first); the harness
// waits for it.
import { join } from 'node:path'
import { startFreshBundle } from '../../scripts/bundle.js'

export default function buildBundle() {
  const { dir, builder } = startFreshBundle({
    progress: (line) => process.stderr.write(`\ne2e: ${line}\n`)
  })
  process.env.E2E_BUNDLE = join(dir, 'index.js')
  if (builder !== undefined) process.env.E2E_BUNDLE_BUILDER = String(builder)
}
