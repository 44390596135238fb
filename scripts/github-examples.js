// @ts-check
/**
 * Writes `simulator/github-examples.json`: for each route of the simulator's GitHub table, its
 * documentation link, and for each schema those routes answer with, the example GitHub's REST
 * description (`@octokit/openapi`) gives (a list keeps its first item). The simulator builds its
 * answers from these, so they keep GitHub's shape without the description itself (13 MB) being
 * needed at run time: `npm run demo` works without `npm install`. Run it after adding a route or
 * updating `@octokit/openapi` (a test fails until then):
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
 * @typedef {{ $ref?: string, type?: string, items?: { $ref?: string } }} SchemaObject
 * @typedef {{ schema?: SchemaObject, examples?: Record<string, ExampleObject> }} Media
 * @typedef {object} Operation
 * @property {{ url: string }} [externalDocs]
 * @property {Record<string, { content?: Record<string, Media> }>} responses
 * @typedef {object} Description
 * @property {Record<string, Record<string, Operation>>} paths
 * @property {{ examples: Record<string, ExampleObject> }} components
 */

/**
 * The file's content, from the description `@octokit/openapi` ships.
 *
 * @returns {{ source: string, docs: Record<string, string>, examples: Record<string, unknown> }}
 */
export function buildExamples() {
  const require = createRequire(import.meta.url)
  const read = (/** @type {string} */ name) => readFileSync(require.resolve(name), 'utf8')
  /** @type {Description} */
  const description = JSON.parse(read('@octokit/openapi/generated/api.github.com.json'))
  const { version } = JSON.parse(read('@octokit/openapi/package.json'))
  /** @type {(example: ExampleObject | undefined) => unknown} */
  const resolve = (example) =>
    example?.$ref === undefined
      ? example?.value
      : resolve(description.components.examples[example.$ref.split('/').pop() ?? ''])

  /** @type {Record<string, string>} */
  const docs = {}
  /** @type {Record<string, unknown>} */
  const examples = {}
  for (const [kind, row] of Object.entries(GITHUB_ROUTES)) {
    if (kind === 'graphql') continue
    const operation = description.paths[row.path]?.[row.method.toLowerCase()]
    if (!operation) throw new Error(`${row.method} ${row.path} is not in GitHub's description`)
    docs[kind] = operation.externalDocs?.url ?? 'https://docs.github.com/rest'
    const [, response] =
      Object.entries(operation.responses).find(([code]) => /^2\d\d$/.test(code)) ?? []
    const media = response?.content?.['application/json']
    // An answer that is an object of its own (the check runs' `{ total_count, check_runs }`)
    // has no schema name: its example is kept under the route's kind.
    const named = (media?.schema?.$ref ?? media?.schema?.items?.$ref)?.split('/').pop()
    const schema = named ?? (media?.schema?.type === 'object' ? kind : undefined)
    const example = resolve(Object.values(media?.examples ?? {})[0])
    if (!schema || example === undefined) {
      throw new Error(`${row.method} ${row.path} has no example answer of a named schema`)
    }
    examples[schema] ??= Array.isArray(example) ? example[0] : example
  }
  return { source: `@octokit/openapi ${version}`, docs, examples }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const json = JSON.stringify(buildExamples(), null, 2)
  // Formatted as the repository's Prettier settings would, so `format:check` passes.
  const prettier = await import('prettier')
  const options = (await prettier.resolveConfig(OUT)) ?? {}
  writeFileSync(OUT, await prettier.format(json, { ...options, filepath: OUT }))
  console.log(`wrote ${OUT}`)
}
