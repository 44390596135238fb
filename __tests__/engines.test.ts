// What the project says it runs on is what its locked packages accept: `engines.node` in
// package.json (and the lock's copy of it) admits no Node.js that a locked package refuses, so
// `npm ci` on a version the project names never warns EBADENGINE, and the pages and `.ci/run`
// that state the range state this one.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

interface Manifest {
  engines?: { node?: string }
}
interface Lock {
  packages: Record<string, Manifest & { engines?: unknown }>
}

const manifest = JSON.parse(read('package.json')) as Manifest
const lock = JSON.parse(read('package-lock.json')) as Lock
const range = manifest.engines?.node ?? ''

/**
 * The lowest version of each branch of a range (`^22.18.0 || >=24.11.0`: 22.18.0 and 24.11.0):
 * every branch is a run of versions upwards from there, so a package that admits each minimum
 * and every later version admits the whole range.
 */
function minimums(of: string): string[] {
  return new semver.Range(of).set.map((comparators) => {
    const branch = comparators.map((c) => c.value).join(' ')
    return semver.minVersion(branch)?.version ?? `no version in ${branch}`
  })
}

/** The `engines.node` range of every locked package that states one as a range. */
function lockedRanges(): [string, string][] {
  return Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .flatMap(([path, entry]) => {
      const engines = entry.engines
      const node =
        typeof engines === 'object' && engines !== null && 'node' in engines
          ? (engines as { node: unknown }).node
          : undefined
      return typeof node === 'string' ? [[path, node] as [string, string]] : []
    })
}

describe('the Node.js versions the project runs on', () => {
  it('package.json names a range, and the lock records the same one', () => {
    expect(semver.validRange(range)).not.toBeNull()
    expect(lock.packages['']?.engines?.node).toBe(range)
  })

  it("every locked package's engines.node admits each lowest version the project names", () => {
    const lowest = minimums(range)
    expect(lowest).toEqual(['22.18.0', '24.11.0'])
    const refusing = lockedRanges().flatMap(([path, node]) =>
      lowest
        .filter((version) => !semver.satisfies(version, node))
        .map((version) => `${path} (${node}) refuses ${version}`)
    )
    expect(refusing).toEqual([])
  })

  it('the check holds: a package that needs a later Node.js is found', () => {
    const needsLater = '^22.20.0 || >=24.12.0'
    expect(minimums(range).filter((version) => !semver.satisfies(version, needsLater))).toEqual([
      '22.18.0',
      '24.11.0'
    ])
  })

  it('the pages and .ci/run state the same lowest versions', () => {
    // `.ci/run` runs npm under Node.js 24 from the registry on anything older; the pages say
    // which versions a contributor needs.
    expect(read('.ci/run')).toContain('(a === 24 && b >= 11) || (a === 22 && b >= 18)')
    for (const page of ['.ci/run', 'CONTRIBUTING.md', 'README.md']) {
      expect([page, read(page).includes('22.18') && read(page).includes('24.11')]).toEqual([
        page,
        true
      ])
    }
  })
})
