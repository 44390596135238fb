// @ts-check
/**
 * Writes `simulator/github-examples.json`: for each route of the simulator's GitHub table, the
 * example answer and documentation link GitHub's REST description (`@octokit/openapi`) gives.
 * The simulator builds its answers from these, so they keep GitHub's shape without the
 * description itself (13 MB) being needed at run time: `npm run demo` works without
 * `npm install`. Run it after adding a route or updating `@octokit/openapi`:
 *
 *   node scripts/github-examples.js
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { GITHUB_ROUTES } from '../simulator/github-routes.js'

const OUT = fileURLToPath(new URL('../simulator/github-examples.json', import.meta.url))

/**
 * @typedef {{ $ref?: string, value?: unknown }} ExampleObject
 * @typedef {object} Operation
 * @property {{ url: string }} [externalDocs]
 * @property {Record<string, { content?: Record<string, { examples?: Record<string, ExampleObject> }> }>} responses
 * @typedef {object} Description
 * @property {Record<string, Record<string, Operation>>} paths
 * @property {{ examples: Record<string, ExampleObject> }} components
 */

const require = createRequire(import.meta.url)
const file = require.resolve('@octokit/openapi/generated/api.github.com.json')
/** @type {Description} */
const description = JSON.parse(readFileSync(file, 'utf8'))
const { version } = JSON.parse(
  readFileSync(require.resolve('@octokit/openapi/package.json'), 'utf8')
)

/**
 * @param {ExampleObject} example
 * @returns {unknown}
 */
function resolve(example) {
  const ref = example.$ref
  if (ref === undefined) return example.value
  const name = ref.replace('#/components/examples/', '')
  const found = description.components.examples[name]
  if (!found) throw new Error(`example ${ref} is not in the description`)
  return resolve(found)
}

/**
 * A list keeps its first item: the simulator renders every item from one.
 *
 * @param {unknown} value
 * @returns {unknown}
 */
function shorten(value) {
  return Array.isArray(value) ? value.slice(0, 1) : value
}

/**
 * Accounts and repositories recur in most answers, in a few shapes. Each shape is kept once, under
 * `parts`, and an answer names it as `{ "$part": name }`; the simulator fills in its own account
 * or repository there anyway.
 *
 * @type {Record<string, unknown>}
 */
const parts = {}

/**
 * @param {unknown} value
 * @returns {unknown}
 */
function share(value) {
  if (Array.isArray(value)) return value.map(share)
  if (typeof value !== 'object' || value === null) return value
  const record = /** @type {Record<string, unknown>} */ (value)
  const kind = 'full_name' in record ? 'repository' : 'login' in record ? 'user' : undefined
  const shared = Object.fromEntries(Object.entries(record).map(([k, v]) => [k, share(v)]))
  if (kind === undefined) return shared
  const signature = Object.keys(record).sort().join(',')
  let name = Object.keys(parts).find(
    (key) =>
      key.split(':')[0] === kind &&
      Object.keys(parts[key] ?? {})
        .sort()
        .join(',') === signature
  )
  if (name === undefined) {
    const count = Object.keys(parts).filter((key) => key.split(':')[0] === kind).length
    name = count === 0 ? kind : `${kind}:${count + 1}`
    parts[name] = shared
  }
  return { $part: name }
}

/** @type {Record<string, { route: string, status: number, docs: string, example: unknown }>} */
const out = {}
for (const row of GITHUB_ROUTES) {
  if (row.kind === 'graphql') continue
  const operation = description.paths[row.path]?.[row.method.toLowerCase()]
  if (!operation) throw new Error(`${row.method} ${row.path} is not in GitHub's REST description`)
  const [status, response] =
    Object.entries(operation.responses).find(([code]) => /^2\d\d$/.test(code)) ?? []
  const examples = response?.content?.['application/json']?.examples ?? {}
  const chosen = 'example' in row ? examples[row.example] : Object.values(examples)[0]
  if (!status || !chosen) throw new Error(`${row.method} ${row.path} has no example answer`)
  out[row.kind] = {
    route: `${row.method} ${row.path}`,
    status: Number(status),
    docs: operation.externalDocs?.url ?? 'https://docs.github.com/rest',
    example: share(shorten(resolve(chosen)))
  }
}

const json = JSON.stringify({ source: `@octokit/openapi ${version}`, routes: out, parts }, null, 2)
// Formatted as the repository's Prettier settings would, so `format:check` passes.
const prettier = await import('prettier')
const options = (await prettier.resolveConfig(OUT)) ?? {}
const text = await prettier.format(json, { ...options, filepath: OUT })
writeFileSync(OUT, text)
console.log(`wrote ${Object.keys(out).length} routes to ${OUT} (${text.length} bytes)`)
