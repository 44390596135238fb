import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleAt, lastReport } from '../scripts/bench-before.js'

// `npm run bench` shows, beside each start-up figure, what the last report recorded and the
// bundle that report measured timed again: these read the report and fetch that bundle.

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BUNDLE = join(ROOT, 'dist', 'index.js')

/** The start-up rows of a report as `npm run bench` writes them (before Prettier pads them). */
function report(rows: { label: string; ms: [number, number, number] }[], commit: string): string {
  const table = rows.flatMap(({ label, ms }) => [
    `| Start-up, ${label}: until the first Mintlify request leaves, against bare Node | ≤ 2.5× | 1.90× (x) | ✅ |`,
    `| … dist/index.js, min / median / max |  | ${ms.map((n) => `${n.toFixed(1)} ms`).join(' / ')} |  |`,
    `| … the last report's figure (abc1234, 2026-01-01) |  | 99.0 ms median |  |`,
    `| … bare Node (POST), min / median / max |  | 1.0 ms / 2.0 ms / 3.0 ms |  |`
  ])
  return [
    '# Benchmarks',
    '',
    'What running the action costs, measured by `npm run bench` (scripts/bench*.js) on',
    '2026-11-25. Re-run it to refresh this page rather than editing it.',
    '',
    '| Measurement | Goal | Result |  |',
    '| --- | --- | --- | --- |',
    ...table,
    '| Size of dist/index.js | < 1.2 MB | 867.2 KB | ✅ |',
    '',
    // Wrapped as Prettier wraps it, inside the processor's name and before the commit.
    '- **Machine**: 2 CPUs, AMD',
    `  EPYC, 25276.5 MB memory, Linux 6.18; Node v24.21.0; commit`,
    `  ${commit}. Timings move with the machine and its load.`
  ].join('\n')
}

describe('the last report', () => {
  it('gives each start-up’s median, the day and the commit of the committed page', () => {
    const page = readFileSync(new URL('../docs/benchmarks.md', import.meta.url), 'utf8')
    const read = lastReport(page)
    expect(read.commit).toMatch(/^[0-9a-f]{7,40}$/)
    expect(read.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(read.cpu).toMatch(/\S/)
    expect([...read.startups.keys()]).toContain('outside a workflow')
    for (const ms of read.startups.values()) expect(ms).toBeGreaterThan(0)
  })

  it('reads back every start-up row a report holds, and nothing else', () => {
    const label = fc
      .stringMatching(/^[a-z][a-z ,()]{0,40}[a-z)]$/)
      .filter((text) => !text.includes(': '))
    const ms = fc.integer({ min: 1, max: 99_999 }).map((n) => n / 10)
    const rows = fc.uniqueArray(fc.record({ label, ms: fc.tuple(ms, ms, ms) }), {
      selector: (row) => row.label,
      maxLength: 4
    })
    fc.assert(
      fc.property(rows, fc.stringMatching(/^[0-9a-f]{7,12}$/), (given, commit) => {
        const read = lastReport(report(given, commit))
        expect(read).toEqual({
          commit,
          date: '2026-11-25',
          cpu: 'AMD EPYC',
          startups: new Map(given.map((row) => [row.label, row.ms[1]]))
        })
      })
    )
  })

  it('knows nothing of a page without one', () => {
    expect(lastReport('')).toEqual({
      commit: undefined,
      date: undefined,
      cpu: undefined,
      startups: new Map()
    })
  })
})

const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' })
// A copy without git history (an unpacked release) has no earlier bundle to fetch.
const describeWithGit = git(['rev-parse', '--git-dir']).status === 0 ? describe : describe.skip

describeWithGit('the bundle the last report measured', () => {
  /** The first commit that has a dist/index.js, and that bundle. */
  const first = () => {
    const commit = git(['log', '--diff-filter=A', '--format=%h', '--', 'dist/index.js'])
      .stdout.trim()
      .split('\n')
      .at(-1)
    return { commit: commit ?? '', text: git(['show', `${commit}:dist/index.js`]).stdout }
  }

  it('is fetched from git into a directory of its own, with its package.json', () => {
    const { commit, text } = first()
    const earlier = bundleAt(ROOT, commit, BUNDLE)
    if (!('file' in earlier)) throw new Error(`no bundle: ${earlier.none}`)
    expect(readFileSync(earlier.file, 'utf8')).toBe(text)
    expect(existsSync(join(dirname(earlier.file), 'package.json'))).toBe(true)
    earlier.remove()
    expect(existsSync(dirname(earlier.file))).toBe(false)
  })

  it('is not timed again when it is the bundle being measured, or git has none', () => {
    const { commit, text } = first()
    const dir = mkdtempSync(join(tmpdir(), 'bench-before-'))
    try {
      writeFileSync(join(dir, 'index.js'), text)
      expect(bundleAt(ROOT, commit, join(dir, 'index.js'))).toEqual({
        none: `dist/index.js is the one ${commit} committed`
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    expect(bundleAt(ROOT, '0000000', BUNDLE)).toEqual({
      none: 'git has no dist/index.js at 0000000'
    })
  })
})
