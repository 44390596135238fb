import { afterAll, describe, expect, it } from '@jest/globals'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { buildExamples } from '../scripts/github-examples.js'
import {
  GITHUB_ROUTE_KINDS,
  GITHUB_ROUTES,
  matchGitHubRoute,
  type GitHubRouteKind
} from '../simulator/github-routes.js'
import { startSimulator, type Simulator } from '../simulator/server.js'

// Every answer the simulator's fake GitHub gives, success or error, checked against the response
// schemas of GitHub's own REST description (`@octokit/openapi`); and every request the action's
// real client sends it, checked against the request schemas.

type Json = Record<string, unknown>
type Schema = Json | boolean
interface Operation {
  parameters?: Json[]
  requestBody?: { content: { 'application/json': { schema: Schema } } }
  responses: Record<string, Json>
}
interface Description {
  paths: Record<string, Record<string, Operation>>
  components: {
    schemas: Record<string, Schema>
    responses: Record<string, Json>
    parameters: Record<string, Json>
  }
}

const require = createRequire(import.meta.url)
const description = JSON.parse(
  readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8')
) as Description

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: the schema, or null. GitHub's description puts
 * it beside `type` and also beside `oneOf`, `anyOf` and `allOf` alone, which Ajv's own support
 * for the keyword (beside `type` only) refuses.
 */
function nullable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullable)
  if (typeof value !== 'object' || value === null) return value
  const { nullable: isNullable, ...rest } = value as Json
  const out = Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, nullable(item)]))
  return isNullable === true ? { anyOf: [out, { type: 'null' }] } : out
}

/** A schema of the description with its references into the `github` schema added below. */
function local(schema: unknown): Schema {
  const text = JSON.stringify(nullable(schema)).replaceAll('"#/components/', '"github#/components/')
  return JSON.parse(text) as Schema
}

// `ajv-formats` is CommonJS: its default export arrives as the module object under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule })
  .default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv
const ajv = new Ajv({
  strict: true,
  strictTypes: false,
  allErrors: true,
  // Keywords of the description that say nothing about validity.
  keywords: ['components', 'example', 'x-github-breaking-changes', 'x-multi-segment']
})
addFormats(ajv)
// Formats of GitHub's own that JSON Schema does not define.
ajv.addFormat('repo.nwo', /^[^/]+\/[^/]+$/)
ajv.addFormat('timestamp', /^\d+$/)
ajv.addSchema({ $id: 'github', components: { schemas: local(description.components.schemas) } })

const compiled = new Map<string, ValidateFunction>()
function validator(key: string, schema: () => Schema): ValidateFunction {
  let found = compiled.get(key)
  if (!found) compiled.set(key, (found = ajv.compile(schema())))
  return found
}

function operation(kind: GitHubRouteKind): Operation {
  const row = GITHUB_ROUTES[kind]
  const found = description.paths[row.path]?.[row.method.toLowerCase()]
  if (!found) throw new Error(`${row.method} ${row.path} is not in GitHub's description`)
  return found
}

/** `#/components/…/name` → the component. */
function resolve<T>(value: T | { $ref: string }, kind: 'responses' | 'parameters'): T {
  const ref = (value as { $ref?: string }).$ref
  return ref === undefined
    ? (value as T)
    : (description.components[kind][ref.split('/').pop() ?? ''] as T)
}

/** What GitHub answers a status a route does not describe with a body of its own. */
const GENERAL: Record<number, string> = {
  400: 'bad_request',
  401: 'requires_authentication',
  403: 'forbidden',
  404: 'not_found',
  422: 'validation_failed'
}

/** The schema of a route's answer with `status`: the route's own, else GitHub's general one. */
function responseSchema(kind: GitHubRouteKind, status: number): Schema {
  const described = operation(kind).responses[String(status)]
  const own = described && resolve<Json>(described, 'responses')
  const media = (own?.content as Record<string, { schema?: Schema }> | undefined)?.[
    'application/json'
  ]
  if (media?.schema) return local(media.schema)
  const general = GENERAL[status]
  const fallback = general === undefined ? undefined : description.components.responses[general]
  const schema = (fallback?.content as Record<string, { schema: Schema }> | undefined)?.[
    'application/json'
  ]?.schema
  if (!schema) throw new Error(`GitHub's description has no answer ${status} for ${kind}`)
  return local(schema)
}

/** Ajv's complaints about `value` under `schema`, one line each; none when it fits. */
function violations(key: string, schema: () => Schema, value: unknown): string[] {
  const validate = validator(key, schema)
  if (validate(value)) return []
  return (validate.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`
  )
}

const REPO = '/repos/Codertocat/Hello-World'
const DOCS = '/repos/acme/docs'
const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'
const BASE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e'
const ZERO = '0'.repeat(40)

/** Tokens: one that reaches every repository, one that may only read `acme/docs`. */
const WRITER = 'ghs_writer'
const READER = 'ghp_reader'
const SCENARIO = {
  github: {
    tokens: {
      writer: { token: WRITER },
      reader: { token: READER, user: 'docs-reader', repos: [], readOnly: ['acme/docs'] }
    },
    nonCollaborators: ['stranger'],
    missingCommits: ['gone'],
    repos: { 'acme/docs': { default_branch: 'main', private: true } },
    branchCommits: {
      'acme/docs@main': [
        { message: 'Document the flag', author: { login: 'mintlify[bot]' } },
        { message: 'Typo', author: { login: null, date: '2020-01-01T00:00:00Z' } }
      ]
    },
    checks: {
      [HEAD]: {
        statuses: [
          { context: 'docs build', state: 'failure' as const, target_url: 'https://ci.test/1' }
        ],
        runs: [
          { name: 'build', conclusion: 'failure', details_url: 'https://ci.test/2' },
          { name: 'lint', conclusion: 'timed_out' },
          { name: 'links' }
        ]
      }
    },
    pulls: {
      'acme/docs#7': { user: 'docs-writer', labels: ['docs'] },
      8: { merged_at: '2030-01-01T00:00:00Z' }
    },
    comments: { 'Codertocat/Hello-World#2': [{ body: 'There before', user: 'octocat', id: 11 }] }
  }
}

/** One request to the fake GitHub (with `WRITER` unless `token` says otherwise), and its status. */
interface Case {
  kind: GitHubRouteKind
  path: string
  status: number
  body?: unknown
  token?: string | null
}

/** A read of each route. */
const READS: Case[] = [
  { kind: 'compare', path: `${REPO}/compare/${BASE}...${HEAD}`, status: 200 },
  { kind: 'commit', path: `${REPO}/commits/${HEAD}`, status: 200 },
  { kind: 'commitPulls', path: `${REPO}/commits/${HEAD}/pulls`, status: 200 },
  { kind: 'pullFiles', path: `${REPO}/pulls/2/files?per_page=100&page=1`, status: 200 },
  { kind: 'listComments', path: `${REPO}/issues/2/comments?per_page=100&page=1`, status: 200 },
  { kind: 'getPull', path: `${REPO}/pulls/2`, status: 200 },
  { kind: 'getComment', path: `${REPO}/issues/comments/11`, status: 200 },
  { kind: 'listStatuses', path: `${REPO}/commits/${HEAD}/statuses`, status: 200 },
  { kind: 'combinedStatus', path: `${REPO}/commits/${HEAD}/status`, status: 200 },
  { kind: 'permission', path: `${REPO}/collaborators/Codertocat/permission`, status: 200 },
  { kind: 'checkRuns', path: `${REPO}/commits/${HEAD}/check-runs?per_page=100`, status: 200 },
  {
    kind: 'listCommits',
    path: `${DOCS}/commits?sha=main&since=2021-01-01T00:00:00Z&per_page=20`,
    status: 200
  },
  { kind: 'getRepo', path: DOCS, status: 200 }
]

/** A write of each route, and a field of the wrong type for it. */
const WRITES: (Case & { wrong: Json })[] = [
  {
    kind: 'react',
    path: `${REPO}/issues/comments/11/reactions`,
    body: { content: 'eyes' },
    wrong: { content: 'smile' },
    status: 201
  },
  {
    kind: 'createComment',
    path: `${REPO}/issues/2/comments`,
    body: { body: 'Docs job started' },
    wrong: { body: 1 },
    status: 201
  },
  {
    kind: 'updateComment',
    path: `${REPO}/issues/comments/11`,
    body: { body: 'Edited' },
    wrong: { body: ['Edited'] },
    status: 200
  },
  {
    kind: 'updatePull',
    path: `${DOCS}/pulls/7`,
    body: { state: 'closed' },
    wrong: { state: 'merged' },
    status: 200
  },
  {
    kind: 'requestReviewers',
    path: `${DOCS}/pulls/7/requested_reviewers`,
    body: { reviewers: ['octocat'], team_reviewers: ['writers'] },
    wrong: { reviewers: 'octocat' },
    status: 201
  },
  {
    kind: 'addLabels',
    path: `${DOCS}/issues/7/labels`,
    body: { labels: ['documentation'] },
    wrong: { labels: 'documentation' },
    status: 200
  },
  {
    kind: 'createStatus',
    path: `${REPO}/statuses/${HEAD}`,
    body: { state: 'success', context: 'docs', description: 'Done', target_url: 'https://x.test' },
    wrong: { state: 'done' },
    status: 201
  }
]

/** What GitHub answers a request the simulator refuses before its route runs. */
function refusals(sample: Case): Case[] {
  const elsewhere = sample.path.replace(/^\/repos\/[^/]+/, '/repos/elsewhere')
  return [
    { ...sample, token: null, status: 401 },
    { ...sample, token: 'ghs_unknown', status: 401 },
    { ...sample, path: elsewhere, token: READER, status: 404 }
  ]
}

const CASES: Case[] = [
  ...READS,
  { kind: 'compare', path: `${REPO}/compare/${BASE}...${HEAD}?per_page=1&page=2`, status: 200 },
  { kind: 'commit', path: `${REPO}/commits/6113728`, status: 200 },
  { kind: 'getPull', path: `${REPO}/pulls/8`, status: 200 },
  ...WRITES.map(({ wrong: _wrong, ...write }) => write),
  { kind: 'getPull', path: `${DOCS}/pulls/7`, status: 200 },
  { kind: 'commitPulls', path: `${DOCS}/commits/${HEAD}/pulls`, status: 200 },
  { kind: 'listComments', path: `${REPO}/issues/2/comments`, status: 200 },
  // After the writes above: statuses to list, one context's latest to combine.
  { kind: 'listStatuses', path: `${REPO}/commits/${HEAD.slice(0, 7)}/statuses`, status: 200 },
  { kind: 'listStatuses', path: `${REPO}/commits/${HEAD}/statuses?per_page=1&page=2`, status: 200 },
  { kind: 'combinedStatus', path: `${REPO}/commits/${HEAD.slice(0, 7)}/status`, status: 200 },
  { kind: 'combinedStatus', path: `${DOCS}/commits/${HEAD}/status`, status: 200 },
  { kind: 'combinedStatus', path: `${REPO}/commits/${ZERO}/status`, status: 404 },
  { kind: 'checkRuns', path: `${REPO}/commits/${ZERO}/check-runs`, status: 404 },
  { kind: 'checkRuns', path: `${DOCS}/commits/${HEAD}/check-runs?per_page=1&page=2`, status: 200 },
  { kind: 'listCommits', path: `${DOCS}/commits`, status: 200 },
  { kind: 'listCommits', path: `${REPO}/commits?sha=unknown`, status: 200 },
  // Someone who is no collaborator is answered 404.
  { kind: 'permission', path: `${REPO}/collaborators/stranger/permission`, status: 404 },
  ...READS.flatMap(refusals),
  ...WRITES.flatMap(({ wrong, ...write }) => [
    ...refusals(write),
    { ...write, path: write.path.replace(REPO, DOCS), token: READER, status: 403 },
    { ...write, body: '{"body": ', status: 400 },
    { ...write, body: '"not an object"', status: 422 },
    { ...write, body: { ...(write.body as Json), ...wrong }, status: 422 }
  ]),
  { kind: 'compare', path: `${REPO}/compare/${ZERO}...${HEAD}`, status: 404 },
  { kind: 'compare', path: `${REPO}/compare/gone...${HEAD}`, status: 404 },
  { kind: 'commit', path: `${REPO}/commits/${ZERO}`, status: 422 },
  { kind: 'commitPulls', path: `${REPO}/commits/gone/pulls`, status: 422 },
  ...[
    { state: 'success', description: 'x'.repeat(141) },
    { context: 'docs' },
    { state: 'success', target_url: 1 }
  ].map((body) => ({
    kind: 'createStatus' as const,
    path: `${REPO}/statuses/${HEAD}`,
    body,
    status: 422
  })),
  {
    kind: 'createStatus',
    path: `${REPO}/statuses/${ZERO}`,
    body: { state: 'success' },
    status: 422
  },
  ...[{ body: ' ' }, { body: 'x'.repeat(65537) }, {}].map((body) => ({
    kind: 'createComment' as const,
    path: `${REPO}/issues/2/comments`,
    body,
    status: 422
  })),
  { kind: 'updateComment', path: `${REPO}/issues/comments/1`, body: { body: 'x' }, status: 404 },
  { kind: 'updateComment', path: `${DOCS}/issues/comments/11`, body: { body: 'x' }, status: 404 },
  { kind: 'updatePull', path: `${REPO}/pulls/8`, body: { state: 'open' }, status: 422 },
  ...[
    { reviewers: ['docs-writer'] },
    { reviewers: ['stranger'] },
    { team_reviewers: ['a/b'] },
    {}
  ].map((body) => ({
    kind: 'requestReviewers' as const,
    path: `${DOCS}/pulls/7/requested_reviewers`,
    body,
    status: 422
  })),
  { kind: 'addLabels', path: `${DOCS}/issues/7/labels`, body: { labels: [] }, status: 422 }
]

// `@actions/github` reads GITHUB_API_URL when it is first imported: the simulator starts first.
const savedApiUrl = process.env.GITHUB_API_URL
const sim: Simulator = await startSimulator({ scenario: SCENARIO })
process.env.GITHUB_API_URL = sim.url
const { createGitHubApi } = await import('../src/clients/github/client.js')

afterAll(async () => {
  if (savedApiUrl === undefined) delete process.env.GITHUB_API_URL
  else process.env.GITHUB_API_URL = savedApiUrl
  await sim.close()
})

describe('every answer of the fake GitHub fits GitHub’s description', () => {
  it.each(
    CASES.map((c): [string, Case] => [
      `${GITHUB_ROUTES[c.kind].method} ${c.path.slice(0, 70)} → ${c.status}`,
      c
    ])
  )('%s', async (_name, c) => {
    const headers: Record<string, string> =
      c.token === null ? {} : { authorization: `token ${c.token ?? WRITER}` }
    const body =
      c.body === undefined || typeof c.body === 'string' ? c.body : JSON.stringify(c.body)
    const res = await fetch(sim.url + c.path, {
      method: GITHUB_ROUTES[c.kind].method,
      headers,
      body
    })
    const value = await res.json()
    expect({ status: res.status, value }).toMatchObject({ status: c.status })
    const schema = () => responseSchema(c.kind, res.status)
    expect(violations(`${c.kind} ${res.status}`, schema, value)).toEqual([])
  })

  it('covers a success of every route, and each refusal of every route', () => {
    for (const kind of GITHUB_ROUTE_KINDS.filter((k) => k !== 'graphql')) {
      const statuses = new Set(CASES.filter((c) => c.kind === kind).map((c) => c.status))
      expect([kind, [...statuses].some((status) => status < 300)]).toEqual([kind, true])
      expect([kind, [401, 404].every((status) => statuses.has(status))]).toEqual([kind, true])
    }
  })

  it('answers GraphQL’s viewer query, the one GraphQL request the action makes', async () => {
    const res = await fetch(`${sim.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `bearer ${READER}` },
      body: JSON.stringify({ query: 'query { viewer { login } }' })
    })
    expect(await res.json()).toEqual({ data: { viewer: { login: 'docs-reader' } } })
  })

  it('builds its answers from the examples of the @octokit/openapi installed', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../simulator/github-examples.json', import.meta.url), 'utf8')
    ) as unknown
    // When this fails: node scripts/github-examples.js
    expect(committed).toEqual(buildExamples())
  })
})

describe('the action’s GitHub client against the fake GitHub', () => {
  it('sends only requests GitHub’s description takes, and reads every answer', async () => {
    const seen = sim.requests.length
    const api = createGitHubApi({
      token: WRITER,
      userAgent: 'mintlify-agent-action/test',
      deadline: () => Date.now() + 60_000
    })
    const signal = new AbortController().signal
    const [code, docs] = [
      ['Codertocat', 'Hello-World'],
      ['acme', 'docs']
    ] as const
    expect((await api.compare(...code, BASE, HEAD, signal)).files).toHaveLength(6)
    expect((await api.commit(...code, HEAD, signal)).commits).toHaveLength(1)
    expect(await api.pullFiles(...code, 2, 300, signal)).toMatchObject({ complete: true })
    expect(await api.commitPulls(...code, HEAD, signal)).toEqual([
      { number: 2, headSha: HEAD, author: 'Codertocat' }
    ])
    expect(await api.viewer(signal)).toEqual({
      login: 'github-actions[bot]',
      id: 41898282,
      bot: true
    })
    const comment = await api.createComment(...code, 2, 'Docs job started', signal)
    await api.updateComment(...code, comment.id, 'Docs job done', signal)
    const { comments } = await api.listComments(...code, 2, 1, signal)
    expect(comments.map((c) => c.body)).toContain('Docs job done')
    expect((await api.getComment(...code, comment.id, signal))?.body).toBe('Docs job done')
    expect(await api.getComment(...code, 999_999_999, signal)).toBeUndefined()
    expect(await api.committedAt(...code, HEAD, signal)).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(await api.getPull(...docs, 9, signal)).toMatchObject({ state: 'open', merged: false })
    await api.requestReviewers(...docs, 9, { users: ['octocat'], teams: ['writers'] }, signal)
    await api.addLabels(...docs, 9, ['documentation'], signal)
    expect(await api.closePull(...docs, 9, signal)).toMatchObject({
      state: 'closed',
      reviewers: ['octocat'],
      teams: ['writers'],
      labels: ['documentation']
    })
    expect(await api.permission(...code, 'Codertocat', signal)).toEqual({
      role: 'admin',
      permission: 'admin'
    })
    expect(await api.permission(...code, 'stranger', signal)).toBeUndefined()
    await api.react(...code, comment.id, 'eyes', signal)
    const status = { state: 'pending', context: 'docs', description: 'Running' } as const
    await api.createStatus(...code, HEAD, { ...status, targetUrl: 'https://x.test/1' }, signal)
    await api.createStatus(...code, HEAD, { ...status, state: 'success' }, signal)
    expect(await api.defaultBranch(...docs, signal)).toBe('main')
    const listed = await api.branchCommits(...docs, 'main', '2021-01-01T00:00:00Z', signal)
    expect(listed.map((c) => c.author)).toEqual([
      { login: 'mintlify[bot]', id: 109931778, bot: true }
    ])
    expect(await api.commitChecks(...code, HEAD, signal)).toEqual({
      statuses: [
        { context: 'docs', state: 'success' },
        { context: 'docs build', state: 'failure', targetUrl: 'https://ci.test/1' }
      ],
      runs: [
        expect.objectContaining({ name: 'build', status: 'completed', conclusion: 'failure' }),
        expect.objectContaining({ name: 'lint', status: 'completed', conclusion: 'timed_out' }),
        expect.objectContaining({ name: 'links', status: 'in_progress' })
      ]
    })

    const requests = sim.requests.slice(seen)
    const kinds = new Set<string>()
    for (const request of requests) {
      const route = matchGitHubRoute(request.path, request.method)
      if (!route || !('kind' in route))
        throw new Error(`${request.method} ${request.path}: no route`)
      kinds.add(route.kind)
      const problems =
        route.kind === 'graphql' ? [] : requestViolations(route.kind, request.path, request.body)
      expect([request.method, request.path, problems]).toEqual([request.method, request.path, []])
    }
    // Every route the simulator plays is one the action calls, but the reads a person makes.
    const called = GITHUB_ROUTE_KINDS.filter((kind) => !('readBack' in GITHUB_ROUTES[kind]))
    expect([...kinds].sort()).toEqual(called.sort())
    expect(sim.github.requests.slice(-requests.length).map((r) => r.status)).not.toContain(null)
  })
})

/** What GitHub's description finds wrong in a request: its query parameters and its body. */
function requestViolations(kind: GitHubRouteKind, path: string, body: string): string[] {
  const { parameters = [], requestBody } = operation(kind)
  const problems: string[] = []
  for (const [name, value] of new URL(path, 'http://x').searchParams) {
    const parameter = parameters
      .map((p) => resolve<Json>(p, 'parameters'))
      .find((p) => p.name === name && p.in === 'query')
    if (!parameter) problems.push(`?${name} is not a parameter of ${kind}`)
    else {
      const read = /^\d+$/.test(value) ? Number(value) : value
      problems.push(...violations(`${kind} ?${name}`, () => local(parameter.schema), read))
    }
  }
  const schema = requestBody?.content['application/json'].schema
  if (schema === undefined) {
    if (body !== '') problems.push(`${kind} takes no body`)
    return problems
  }
  return [...problems, ...violations(`${kind} body`, () => local(schema), JSON.parse(body))]
}
