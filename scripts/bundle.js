// @ts-check
// Bundles src/ into one file with ncc, the way every copy of the action is built.
//
//   node scripts/bundle.js [--out DIR]   (`npm run build`: into dist/ unless told otherwise)
//
// Every build writes, beside the bundle, `sources.sha256`: the digest of what it was made from
// (`buildKey()`). The end-to-end tests run the committed dist/ itself when its digest is that of
// the sources as they are, which is what CI's dist/ check holds it to; otherwise they run a new
// build. `freshBundle()` serves `npm run check:dist` and the tests' new builds: it keeps builds
// under node_modules/.cache and builds again only when something a bundle is made from has
// changed. The tests start theirs with `startFreshBundle()` and wait with `awaitBundle()`, so that
// other tests run while ncc does.
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync
} from 'node:fs'
import { join, relative } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
const NCC = join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
const CACHE = join(ROOT, 'node_modules', '.cache', 'mintlify-agent-action')
/** Cached builds not used for this long are removed. */
const STALE_MS = 24 * 3_600_000

/** How the action is bundled, for dist/ and for every other copy. */
const NCC_ARGS = ['src/index.ts', '--license', 'licenses.txt', '--minify', '--target', 'es2022']

/** The file, beside each bundle, holding the digest of what it was made from. */
const KEY_FILE = 'sources.sha256'

/** The packages that build the bundle without shipping in it. */
const BUILD_TOOLS = ['@vercel/ncc', 'typescript']

/**
 * Runs ncc once, writing index.js, package.json and licenses.txt into `outDir`. Throws with
 * ncc's output when the build fails.
 *
 * @param {string} outDir
 * @param {{ quiet?: boolean }} [options] quiet: keep ncc's summary and errors for the exception
 */
export function build(outDir, { quiet = false } = {}) {
  if (!existsSync(NCC)) {
    throw new Error('node_modules/@vercel/ncc is missing: run `npm ci` first.')
  }
  const ncc = spawnSync(
    process.execPath,
    [NCC, 'build', ...NCC_ARGS, '--out', outDir, ...(quiet ? ['--quiet'] : [])],
    { cwd: ROOT, encoding: 'utf8', stdio: quiet ? 'pipe' : 'inherit' }
  )
  if (ncc.error) throw ncc.error
  if (ncc.status !== 0) {
    const output = `${ncc.stdout ?? ''}${ncc.stderr ?? ''}`.trim()
    throw new Error(`ncc could not bundle src/index.ts${output ? `:\n${output}` : ''}`)
  }
  writeFileSync(join(outDir, KEY_FILE), `${buildKey()}\n`)
}

/**
 * A bundle built from the sources as they are now: the cached one when nothing it is made from
 * has changed since it was built, otherwise a new build. Each build has its own directory, named
 * after what it was made from, so a new one never pulls files from under a test still running the
 * one before; directories not used for a day are removed.
 *
 * @param {{ progress?: (line: string) => void }} [options] told when a build starts
 * @returns {string} the directory holding index.js, package.json and licenses.txt
 */
export function freshBundle({ progress } = {}) {
  const dir = bundleDir()
  if (existsSync(dir)) {
    utimesSync(dir, new Date(), new Date())
    return dir
  }
  progress?.('bundling src/ with ncc…')
  buildInto(dir)
  return dir
}

/**
 * @param {string} [root] the repository
 * @returns {string | undefined} its dist/, when dist/ holds a bundle whose digest is that of the
 *   sources as they are now
 */
export function committedBundle(root = ROOT) {
  const dist = join(root, 'dist')
  const key = readIfExists(join(dist, KEY_FILE))?.trim()
  return key === buildKey(root) && existsSync(join(dist, 'index.js')) ? dist : undefined
}

/**
 * A bundle of the sources as they are now, for the end-to-end tests: the committed dist/ when its
 * digest says it was built from them (`npm run check:dist` holds it to that), otherwise
 * `freshBundle()` in a process of its own. Returns at once the directory the bundle is or will be
 * in, with the id of the process building it when there was no bundle yet. `awaitBundle` waits
 * for it.
 *
 * @param {{ progress?: (line: string) => void }} [options] told which bundle runs, and when a
 *   build starts
 * @returns {{ dir: string, builder?: number }}
 */
export function startFreshBundle({ progress } = {}) {
  const committed = committedBundle()
  if (committed !== undefined) {
    progress?.('running dist/: it was built from the sources as they are')
    return { dir: committed }
  }
  const dir = bundleDir()
  if (existsSync(dir)) {
    utimesSync(dir, new Date(), new Date())
    return { dir }
  }
  progress?.('bundling src/ with ncc, while other tests run…')
  rmSync(failureFile(dir), { force: true })
  const builder = spawn(process.execPath, [fileURLToPath(import.meta.url), '--into', dir], {
    cwd: ROOT,
    stdio: 'ignore'
  })
  builder.unref()
  return { dir, builder: builder.pid }
}

/**
 * Resolves once the bundle `startFreshBundle` returned is in `dir`; throws with ncc's output when
 * its build failed, or when the build ended without one.
 *
 * @param {string} dir
 * @param {number} [builder] the process building it
 * @returns {Promise<string>} dir
 */
export async function awaitBundle(dir, builder) {
  for (;;) {
    if (existsSync(dir)) return dir
    const failure = readIfExists(failureFile(dir))
    if (failure !== undefined) throw new Error(failure)
    if (builder === undefined || !isRunning(builder)) {
      if (existsSync(dir)) return dir
      throw new Error(`The bundle build ended without writing ${dir}`)
    }
    await sleep(100)
  }
}

/**
 * Builds the bundle into `dir`, which must not exist yet, through a staging directory: renaming a
 * directory is atomic, so `dir` exists only once the build in it is complete. Old builds not used
 * for a day are removed.
 *
 * @param {string} dir
 */
function buildInto(dir) {
  mkdirSync(CACHE, { recursive: true })
  const staging = `${dir}.${process.pid}.tmp`
  try {
    build(staging, { quiet: true })
    try {
      renameSync(staging, dir)
    } catch (error) {
      // Another build of the same sources finished first; its bundle is the same.
      if (!existsSync(dir)) throw error
    }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  for (const entry of readdirSync(CACHE)) {
    const old = join(CACHE, entry)
    if (old !== dir && Date.now() - statSync(old).mtimeMs > STALE_MS) {
      rmSync(old, { recursive: true, force: true })
    }
  }
}

/** @returns {string} where the bundle of the sources as they are now is kept */
function bundleDir() {
  return join(CACHE, `bundle-${buildKey().slice(0, 16)}`)
}

/**
 * @param {string} dir
 * @returns {string} where a failed build into `dir` leaves ncc's output
 */
function failureFile(dir) {
  return `${dir}.failed`
}

/**
 * @param {number} pid
 * @returns {boolean}
 */
function isRunning(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM'
  }
}

/**
 * A digest of what a bundle is made from: every file under src/, the compiler settings, the ncc
 * options, the package's module type, and the packages package-lock.json records that ship in the
 * bundle or build it (all but the dev-only ones, then ncc and TypeScript). A test, a script, or a
 * dev-only package such as Jest changes nothing a bundle holds, so it leaves the digest as it is:
 * updating one does not make dist/ stale.
 *
 * @param {string} [root] the repository
 * @returns {string}
 */
export function buildKey(root = ROOT) {
  const hash = createHash('sha256')
  /** @param {string} name @param {string} text */
  const add = (name, text) => hash.update(`${name}\n${text}\n`)
  /** @param {string} file */
  const read = (file) => readFileSync(join(root, file), 'utf8')
  for (const file of filesUnder(root, 'src')) add(file, read(file))
  add('tsconfig.json', read('tsconfig.json'))
  add('ncc', NCC_ARGS.join(' '))
  const manifest = JSON.parse(read('package.json'))
  add('type', String(manifest.type))
  /** @type {{ packages: Record<string, { dev?: boolean, devOptional?: boolean }> }} */
  const lock = JSON.parse(read('package-lock.json'))
  const tools = BUILD_TOOLS.map((name) => `node_modules/${name}`)
  for (const [path, entry] of Object.entries(lock.packages).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const ships = path !== '' && !entry.dev && !entry.devOptional
    if (ships || tools.includes(path)) add(path, JSON.stringify(entry))
  }
  return hash.digest('hex')
}

/**
 * @param {string} root the repository
 * @param {string} dir relative to it
 * @returns {string[]} every file below it, relative to the repository, in a stable order
 */
function filesUnder(root, dir) {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort()
}

/**
 * @param {string} file
 * @returns {string | undefined}
 */
function readIfExists(file) {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  /** @type {string | undefined} --into DIR: startFreshBundle's build, which awaitBundle watches */
  let into
  try {
    const { values } = parseArgs({
      options: { out: { type: 'string', default: 'dist' }, into: { type: 'string' } }
    })
    into = values.into
    if (into) buildInto(into)
    else build(values.out)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (into) writeFileSync(failureFile(into), message)
    console.error(`build: ${message}`)
    process.exitCode = 1
  }
}
