// @ts-check
// What the last report of `npm run bench` said about start-up, and the bundle it measured, so a
// new run can show the figures side by side and time that bundle again on the same machine at the
// same moment: a change in start-up then shows as a difference between two bundles, not between
// two days' loads.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * @typedef {object} LastReport
 * @property {string | undefined} commit the commit whose dist/index.js it measured
 * @property {string | undefined} date the day it was measured
 * @property {Map<string, number>} startups median milliseconds to the first Mintlify request of
 *   dist/index.js, by kind of start (`outside a workflow`, …)
 * @property {string | undefined} cpu the processor it ran on, as `os.cpus()` names it
 */

/**
 * Reads a report `npm run bench` wrote (docs/benchmarks.md): each start-up row's kind, the median
 * of the `… dist/index.js, min / median / max` row under it, the day and the commit.
 *
 * @param {string} text @returns {LastReport}
 */
export function lastReport(text) {
  /** @type {Map<string, number>} */
  const startups = new Map()
  /** @type {string | undefined} */
  let kind
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    const what = cells[1] ?? ''
    const start = /^Start-up, (.+?): /.exec(what)
    if (start) kind = start[1]
    else if (kind !== undefined && what === '… dist/index.js, min / median / max') {
      const ms = /^[\d.]+ ms \/ ([\d.]+) ms \/ [\d.]+ ms$/.exec(cells[3] ?? '')
      if (ms) startups.set(kind, Number(ms[1]))
      kind = undefined
    } else if (!what.startsWith('…')) kind = undefined
  }
  // Prettier wraps the prose anywhere: a line break may fall inside any of these.
  const flat = text.replace(/\s+/g, ' ')
  const commit = /\bcommit ([0-9a-f]{7,40})\b/.exec(flat)?.[1]
  const date = /\bon (\d{4}-\d{2}-\d{2})\b/.exec(flat)?.[1]
  const cpu = /\*\*Machine\*\*: \d+ CPUs, (.+?), [\d.]+ MB memory/.exec(flat)?.[1]
  return { commit, date, startups, cpu }
}

/**
 * The bundle committed at `commit` (dist/index.js and dist/package.json) in a temporary
 * directory, or why there is none: git cannot show it, or it is the bundle being measured.
 *
 * @param {string} root the repository @param {string} commit @param {string} bundle the current
 * @returns {{ file: string, remove: () => void } | { none: string }}
 */
export function bundleAt(root, commit, bundle) {
  const git = (/** @type {string[]} */ args) =>
    spawnSync('git', args, { cwd: root, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 })
  const then = git(['rev-parse', `${commit}:dist/index.js`])
  const now = git(['hash-object', bundle])
  if (then.status !== 0) return { none: `git has no dist/index.js at ${commit}` }
  if (then.stdout.toString().trim() === now.stdout.toString().trim()) {
    return { none: `dist/index.js is the one ${commit} committed` }
  }
  const dir = mkdtempSync(join(tmpdir(), 'mintlify-agent-bench-before-'))
  for (const name of ['index.js', 'package.json']) {
    const shown = git(['show', `${commit}:dist/${name}`])
    if (shown.status !== 0) {
      rmSync(dir, { recursive: true, force: true })
      return { none: `git has no dist/${name} at ${commit}` }
    }
    writeFileSync(join(dir, name), shown.stdout)
  }
  return {
    file: join(dir, 'index.js'),
    remove: () => rmSync(dir, { recursive: true, force: true })
  }
}
