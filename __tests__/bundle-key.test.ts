import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { buildKey, committedBundle } from '../scripts/bundle.js'

// The digest that lets the end-to-end tests run the committed dist/ instead of a new build: it
// must change with everything a bundle is made from, and with nothing else (a dev-only package
// update must not make dist/ stale). Each case below edits one file of a small repository.

type Lock = { packages: Record<string, Record<string, unknown>> }

const LOCK: Lock = {
  packages: {
    '': {
      name: 'example',
      dependencies: { zod: '^4.0.0' },
      devDependencies: { jest: '^30.0.0', typescript: '~6.0.0', '@vercel/ncc': '^0.45.0' }
    },
    'node_modules/zod': { version: '4.0.0' },
    'node_modules/jest': { version: '30.0.0', dev: true },
    'node_modules/fsevents': { version: '2.3.3', dev: true, optional: true },
    'node_modules/chokidar': { version: '4.0.0', devOptional: true },
    'node_modules/typescript': { version: '6.0.3', dev: true },
    'node_modules/@vercel/ncc': { version: '0.45.0', dev: true }
  }
}

const roots: string[] = []
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })))

/** A repository holding what a bundle is made from, and a test and a script beside it. */
function repository(): string {
  const root = mkdtempSync(join(tmpdir(), 'bundle-key-'))
  roots.push(root)
  const files: Record<string, string> = {
    'src/index.ts': "import { run } from './main.js'\nawait run()\n",
    'src/main.ts': 'export async function run(): Promise<void> {}\n',
    'src/inner/words.ts': "export const WORDS = 'docs'\n",
    'tsconfig.json': '{ "compilerOptions": { "module": "NodeNext" } }\n',
    'package.json': JSON.stringify({ name: 'example', type: 'module', scripts: { test: 'jest' } }),
    'package-lock.json': JSON.stringify(LOCK),
    '__tests__/main.test.ts': "it('runs', () => {})\n",
    'scripts/demo.js': "console.log('demo')\n"
  }
  for (const [file, text] of Object.entries(files)) write(root, file, text)
  return root
}

function write(root: string, file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true })
  writeFileSync(join(root, file), text)
}

function editJson<T>(root: string, file: string, edit: (value: T) => void): void {
  const value = JSON.parse(readFileSync(join(root, file), 'utf8')) as T
  edit(value)
  write(root, file, JSON.stringify(value))
}

function editLock(root: string, edit: (packages: Lock['packages']) => void): void {
  editJson<Lock>(root, 'package-lock.json', (lock) => edit(lock.packages))
}

/** Edits to what a bundle is made from. */
const MADE_FROM: [string, (root: string) => void][] = [
  ['a source file changes', (root) => write(root, 'src/main.ts', 'export const run = 1\n')],
  ['a source file is added', (root) => write(root, 'src/inner/more.ts', 'export {}\n')],
  ['a source file is removed', (root) => rmSync(join(root, 'src/inner/words.ts'))],
  ['a comment in a source file changes', (root) => write(root, 'src/main.ts', '// run\n')],
  ['the compiler settings change', (root) => write(root, 'tsconfig.json', '{}\n')],
  [
    'the module type changes',
    (root) => editJson<{ type: string }>(root, 'package.json', (pkg) => (pkg.type = 'commonjs'))
  ],
  [
    'a shipped package is updated',
    (root) => editLock(root, (packages) => (packages['node_modules/zod'] = { version: '4.1.0' }))
  ],
  [
    'a shipped package is added',
    (root) => editLock(root, (packages) => (packages['node_modules/undici'] = { version: '6.0.0' }))
  ],
  [
    'TypeScript is updated',
    (root) =>
      editLock(root, (packages) => (packages['node_modules/typescript']!['version'] = '6.0.4'))
  ],
  [
    'ncc is updated',
    (root) =>
      editLock(root, (packages) => (packages['node_modules/@vercel/ncc']!['version'] = '0.46.0'))
  ]
]

/** Edits to everything else. */
const NOT_MADE_FROM: [string, (root: string) => void][] = [
  ['a test changes', (root) => write(root, '__tests__/main.test.ts', "it('fails', () => {})\n")],
  ['a script changes', (root) => write(root, 'scripts/demo.js', 'process.exit(1)\n')],
  [
    'an npm script changes',
    (root) =>
      editJson<{ scripts: Record<string, string> }>(
        root,
        'package.json',
        (pkg) => (pkg.scripts['lint'] = 'eslint .')
      )
  ],
  [
    'a dev-only package is updated',
    (root) => editLock(root, (packages) => (packages['node_modules/jest']!['version'] = '30.1.0'))
  ],
  [
    'a dev-only optional package is updated',
    (root) =>
      editLock(root, (packages) => (packages['node_modules/chokidar']!['version'] = '4.1.0'))
  ],
  [
    'a dev-only package is added to the root list',
    (root) =>
      editLock(root, (packages) => {
        packages['']!['devDependencies'] = { eslint: '^10.0.0' }
        packages['node_modules/eslint'] = { version: '10.0.0', dev: true }
      })
  ],
  [
    'the lock lists its packages in another order',
    (root) =>
      editLock(root, (packages) => {
        const entries = Object.entries(packages).reverse()
        for (const [path] of entries) delete packages[path]
        for (const [path, entry] of entries) packages[path] = entry
      })
  ],
  ['a dist/ is written', (root) => write(root, 'dist/index.js', 'export {}\n')]
]

describe('the digest of what a bundle is made from', () => {
  it('is the same for the same files', () => {
    const [a, b] = [repository(), repository()]
    expect(buildKey(a)).toMatch(/^[0-9a-f]{64}$/)
    expect(buildKey(a)).toBe(buildKey(b))
  })

  it.each(MADE_FROM)('changes when %s', (_, edit) => {
    const root = repository()
    const before = buildKey(root)
    edit(root)
    expect(buildKey(root)).not.toBe(before)
  })

  it.each(NOT_MADE_FROM)('stays when %s', (_, edit) => {
    const root = repository()
    const before = buildKey(root)
    edit(root)
    expect(buildKey(root)).toBe(before)
  })
})

describe('the committed dist/ the end-to-end tests run', () => {
  function withDist(key: (root: string) => string, files = ['index.js']): string {
    const root = repository()
    for (const file of files) write(root, `dist/${file}`, 'export {}\n')
    write(root, 'dist/sources.sha256', `${key(root)}\n`)
    return root
  }

  it('is run when its digest is that of the sources as they are', () => {
    const root = withDist(buildKey)
    expect(committedBundle(root)).toBe(join(root, 'dist'))
  })

  it.each(MADE_FROM)('is built again when %s after it was built', (_, edit) => {
    const root = withDist(buildKey)
    edit(root)
    expect(committedBundle(root)).toBeUndefined()
  })

  it('is built again when it has no digest, or no bundle beside its digest', () => {
    const noDigest = repository()
    write(noDigest, 'dist/index.js', 'export {}\n')
    expect(committedBundle(noDigest)).toBeUndefined()
    expect(committedBundle(withDist(buildKey, []))).toBeUndefined()
    expect(committedBundle(repository())).toBeUndefined()
  })
})
