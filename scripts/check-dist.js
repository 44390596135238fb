// @ts-check
// npm run check:dist: fails when the committed dist/ is not what the sources build.
//
// Writes a bundle of the sources as they are now over dist/ (the one the end-to-end tests built,
// when the sources have not changed since) and asks git which files that changed. Either way
// dist/ ends up holding the rebuilt bundle, ready to commit. `git status` rather than `git diff`:
// it also names files the build added, and a rebuilt dist/ that is not committed yet.
//
// Exit status: 0 dist/ matches, 1 dist/ is stale (the files are listed), 2 the check could not run.
import { execFileSync } from 'node:child_process'
import { cpSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { freshBundle, ROOT } from './bundle.js'

const HINT = 'Run `npm run build` and commit dist/.'

/**
 * @param {string} status the two-letter code of `git status --porcelain`
 * @returns {string} what it means for a file of dist/
 */
function meaning(status) {
  if (status === '??') return 'new, not committed'
  if (status.includes('D')) return 'no longer built'
  return 'differs from the build'
}

/** @returns {number} the exit status */
function main() {
  /** @type {string[]} */
  let changes
  try {
    const bundle = freshBundle({ progress: (line) => console.log(`check:dist: ${line}`) })
    const dist = join(ROOT, 'dist')
    rmSync(dist, { recursive: true, force: true })
    cpSync(bundle, dist, { recursive: true })
    changes = execFileSync('git', ['status', '--porcelain', '--', 'dist'], {
      cwd: ROOT,
      encoding: 'utf8'
    })
      .split('\n')
      .filter((line) => line !== '')
  } catch (error) {
    console.error(`check:dist: ${error instanceof Error ? error.message : String(error)}`)
    return 2
  }

  if (changes.length === 0) {
    console.log('dist/ matches the sources.')
    return 0
  }
  console.log('dist/ is not what the sources build:')
  for (const line of changes) console.log(`  ${line.slice(3)}: ${meaning(line.slice(0, 2))}`)
  if (process.env.GITHUB_ACTIONS === 'true') console.log(`::error title=dist/ is stale::${HINT}`)
  else console.error(`dist/ is stale. ${HINT}`)
  return 1
}

process.exitCode = main()
