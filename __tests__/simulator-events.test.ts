import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { startSimulator, type Simulator } from '../simulator/server.js'

// The event payload fixtures, checked against the package they were taken from and against the
// answers the simulator's fake GitHub gives for them with no knobs.

const DIR = fileURLToPath(new URL('../__fixtures__/events/', import.meta.url))
const ZERO = '0'.repeat(40)
const AUTH = { authorization: 'Bearer ghs_simulated' }

type Payload = Record<string, unknown> & {
  ref?: string
  before?: string
  after?: string
  created?: boolean
  deleted?: boolean
  commits?: { id: string; message: string; added: string[]; modified: string[] }[]
  head_commit?: { id: string; message: string } | null
  number?: number
  repository?: { full_name: string }
  pull_request?: {
    number: number
    head: { sha: string; ref: string; label: string; repo: { full_name: string; fork: boolean } }
    base: { sha: string; ref: string; repo: { full_name: string } }
  }
}

function fixture(name: string): Payload {
  return JSON.parse(readFileSync(DIR + name, 'utf8')) as Payload
}

let examples: { name: string; examples: unknown[] }[] | undefined

/** An example payload of `@octokit/webhooks-examples`, a fresh copy each time. */
function example(event: string, index: number): unknown {
  if (!examples) {
    const require = createRequire(import.meta.url)
    const path = require.resolve('@octokit/webhooks-examples/api.github.com/index.json')
    examples = JSON.parse(readFileSync(path, 'utf8')) as typeof examples
  }
  const found = examples?.find((entry) => entry.name === event)?.examples[index]
  return structuredClone(found)
}

describe('event fixtures', () => {
  it.each([
    ['push-created-branch.json', 'push', 4],
    ['push-created-tag.json', 'push', 0],
    ['push-deleted-tag.json', 'push', 2],
    ['pull_request-opened.json', 'pull_request', 0],
    ['pull_request-synchronize.json', 'pull_request', 22],
    ['workflow_dispatch.json', 'workflow_dispatch', 0]
  ])('%s is %s example %i, unmodified', (file, event, index) => {
    expect(fixture(file)).toEqual(example(event, index))
  })

  it('has a README and no fixture it does not describe', () => {
    const readme = readFileSync(DIR + 'README.md', 'utf8')
    const files = readdirSync(DIR).filter((name) => name.endsWith('.json'))
    for (const name of files) expect(readme).toContain(`\`${name}\``)
  })

  it('cover the cases the action tells apart', () => {
    const created = fixture('push-created-branch.json')
    expect(created).toMatchObject({ ref: 'refs/heads/master', before: ZERO, created: true })
    expect(fixture('push-created-tag.json')).toMatchObject({
      ref: 'refs/tags/simple-tag',
      before: ZERO,
      created: true,
      commits: []
    })
    expect(fixture('push-deleted-tag.json')).toMatchObject({ after: ZERO, deleted: true })
    expect(fixture('pull_request-opened.json')).toMatchObject({ action: 'opened', number: 2 })
    expect(fixture('pull_request-synchronize.json')).toMatchObject({ action: 'synchronize' })
    expect(fixture('workflow_dispatch.json')).toMatchObject({ ref: 'refs/heads/main', inputs: {} })
  })

  it('derives an ordinary push and says how', () => {
    const push = fixture('push.json')
    expect(push._derived).toMatch(/push example \(index 4\)/)
    expect(push).toMatchObject({ created: false, deleted: false, forced: false })
    expect(push.before).toMatch(/^(?!0+$)[0-9a-f]{40}$/)
    expect(push.after).toMatch(/^(?!0+$)[0-9a-f]{40}$/)
    expect(push.commits).toHaveLength(1)
    expect(push.head_commit?.id).toBe(push.after)
    const sync = fixture('pull_request-synchronize.json')
    expect([push.before, push.after]).toEqual([sync.before, sync.after])
    // Apart from what the note names, it is the example it came from.
    const changed = ['_derived', 'ref', 'before', 'after', 'created', 'compare', 'commits']
    const strip = (payload: Payload) =>
      Object.fromEntries(
        Object.entries(payload).filter(([key]) => !changed.includes(key) && key !== 'head_commit')
      )
    expect(strip(push)).toEqual(strip(example('push', 4) as Payload))
  })

  it('derives a pull request from a fork and says how', () => {
    const fork = fixture('pull_request-opened-fork.json')
    const pull = fork.pull_request
    expect(fork._derived).toMatch(/pull_request opened example \(index 0\)/)
    expect(pull?.head.repo).toMatchObject({ full_name: 'hubot/Hello-World', fork: true })
    expect(pull?.head.repo).toHaveProperty('owner.login', 'hubot')
    expect(pull?.base.repo.full_name).toBe('Codertocat/Hello-World')
    // Apart from what the note names, it is the example it came from.
    const original = example('pull_request', 0) as Payload & {
      pull_request: Record<string, unknown>
      sender: unknown
    }
    const restored = structuredClone(fork) as typeof original
    delete restored._derived
    for (const key of ['head', 'user', 'author_association', 'maintainer_can_modify']) {
      restored.pull_request[key] = original.pull_request[key]
    }
    restored.sender = original.sender
    expect(restored).toEqual(original)
  })
})

describe('the simulator with no knobs answers consistently for them', () => {
  let sim: Simulator

  beforeAll(async () => {
    sim = await startSimulator()
  })

  afterAll(async () => {
    await sim.close()
  })

  async function github<T>(path: string): Promise<[number, T]> {
    const res = await fetch(sim.url + path, { headers: AUTH })
    return [res.status, (await res.json()) as T]
  }

  it('compares an ordinary push and shows the commit and files it lists', async () => {
    const push = fixture('push.json')
    const repo = push.repository?.full_name ?? ''
    const [status, body] = await github<{
      commits: { sha: string; commit: { message: string } }[]
      files: { filename: string; status: string }[]
    }>(`/repos/${repo}/compare/${push.before}...${push.after}`)
    expect(status).toBe(200)
    const [commit] = push.commits ?? []
    expect(body.commits.map((c) => [c.sha, c.commit.message])).toEqual([
      [commit?.id, commit?.message]
    ])
    const added = body.files.filter((f) => f.status === 'added').map((f) => f.filename)
    const modified = body.files.filter((f) => f.status === 'modified').map((f) => f.filename)
    expect(added.sort()).toEqual([...(commit?.added ?? [])].sort())
    expect(modified.sort()).toEqual([...(commit?.modified ?? [])].sort())
  })

  it('finds the pushed commit of a new branch or tag', async () => {
    for (const name of ['push-created-branch.json', 'push-created-tag.json']) {
      const push = fixture(name)
      const [status, body] = await github<{ commit: { message: string }; files: unknown[] }>(
        `/repos/${push.repository?.full_name}/commits/${push.after}`
      )
      expect(status).toBe(200)
      expect(body.commit.message).toBe('Initial commit')
      expect(body.files).toEqual([expect.objectContaining({ filename: 'README.md' })])
    }
    const [first] = fixture('push-created-branch.json').commits ?? []
    expect(first?.added).toEqual(['README.md'])
  })

  it('knows no commit for a deleted tag', async () => {
    const push = fixture('push-deleted-tag.json')
    const [status] = await github(`/repos/${push.repository?.full_name}/commits/${push.after}`)
    expect(status).toBe(422)
  })

  it('finds the pull request of the pull_request payloads from their head commit', async () => {
    for (const name of ['pull_request-opened.json', 'pull_request-synchronize.json']) {
      const pull = fixture(name).pull_request
      const repo = pull?.base.repo.full_name ?? ''
      const [, pulls] = await github<NonNullable<Payload['pull_request']>[]>(
        `/repos/${repo}/commits/${pull?.head.sha}/pulls`
      )
      expect(pulls).toEqual([
        expect.objectContaining({
          number: pull?.number,
          head: expect.objectContaining({
            sha: pull?.head.sha,
            ref: pull?.head.ref,
            label: pull?.head.label
          }),
          base: expect.objectContaining({ sha: pull?.base.sha, ref: pull?.base.ref })
        })
      ])
      const [status, files] = await github<unknown[]>(`/repos/${repo}/pulls/${pull?.number}/files`)
      expect(status).toBe(200)
      expect(files.length).toBeGreaterThan(0)
    }
  })
})
