// @ts-check
// globalSetup of the end-to-end tests: they run a bundle built from the sources under test, not
// the committed dist/ (`npm run check:dist` keeps that equal to it). Jest runs this only when at
// least one test of the e2e project runs; the build is reused while the sources stay the same.
import { join } from 'node:path'
import { freshBundle } from '../../scripts/bundle.js'

export default function buildBundle() {
  const dir = freshBundle({ progress: (line) => process.stderr.write(`\ne2e: ${line}\n`) })
  process.env.E2E_BUNDLE = join(dir, 'index.js')
}
