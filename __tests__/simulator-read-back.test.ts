import { afterAll, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { combine, matchGitHubRoute } from '../simulator/github-routes.js'
import { startSimulator, type Simulator } from '../simulator/server.js'

// The reads docs/try-it.md gives for checking what a run wrote on the simulator's GitHub: a commit's
// statuses (newest first) and its combined status, as GitHub answers them.

const REPO = '/repos/Codertocat/Hello-World'
const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'
const STATES = ['pending', 'success', 'failure', 'error'] as const
type State = (typeof STATES)[number]
interface Written {
  state: State
  context: string
}
interface Listed extends Written {
  id: number
  description: string | null
  url: string
  creator: { login: string }
}
interface Combined {
  state: string
  sha: string
  total_count: number
  statuses: (Written & { creator?: unknown })[]
  repository: { full_name: string }
  url: string
  commit_url: string
}

const sim: Simulator = await startSimulator({ scenario: { github: { token: 'ghs_any' } } })
afterAll(() => sim.close())

const headers = { authorization: 'Bearer ghs_any' }
async function read<T>(path: string): Promise<T> {
  const res = await fetch(sim.url + path, { headers })
  expect([path, res.status]).toEqual([path, 200])
  return (await res.json()) as T
}
async function write(path: string, body: Written & { description?: string }): Promise<void> {
  const res = await fetch(sim.url + path, { method: 'POST', headers, body: JSON.stringify(body) })
  expect(res.status).toBe(201)
}

/** A commit of its own per test, so the statuses of one do not reach another. */
let commits = 0
const freshCommit = () => (++commits).toString(16).padStart(40, '0')

describe('reading back the docs check', () => {
  it('lists a commit’s statuses newest first, and combines the latest of each context', async () => {
    const sha = freshCommit()
    await write(`${REPO}/statuses/${sha}`, {
      state: 'pending',
      context: 'Mintlify docs (p)',
      description: 'Docs job job_1 is running'
    })
    await write(`${REPO}/statuses/${sha}`, { state: 'success', context: 'Mintlify docs (p)' })
    await write(`${REPO}/statuses/${sha}`, { state: 'pending', context: 'ci' })

    const listed = await read<Listed[]>(`${REPO}/commits/${sha}/statuses`)
    expect(listed.map((s) => [s.context, s.state])).toEqual([
      ['ci', 'pending'],
      ['Mintlify docs (p)', 'success'],
      ['Mintlify docs (p)', 'pending']
    ])
    expect(listed[2]).toMatchObject({
      description: 'Docs job job_1 is running',
      url: `${sim.url}${REPO}/statuses/${sha}`,
      creator: { login: 'github-actions[bot]' }
    })

    const combined = await read<Combined>(`${REPO}/commits/${sha}/status`)
    expect(combined).toMatchObject({
      state: 'pending',
      sha,
      total_count: 2,
      repository: { full_name: 'Codertocat/Hello-World' },
      url: `${sim.url}${REPO}/commits/${sha}/status`,
      commit_url: `${sim.url}${REPO}/commits/${sha}`
    })
    expect(combined.statuses.map((s) => [s.context, s.state])).toEqual([
      ['ci', 'pending'],
      ['Mintlify docs (p)', 'success']
    ])
    expect(combined.statuses[0]).not.toHaveProperty('creator')
  })

  it('keeps another repository’s statuses and another commit’s out', async () => {
    const sha = freshCommit()
    await write(`/repos/acme/docs/statuses/${sha}`, { state: 'failure', context: 'x' })
    await write(`${REPO}/statuses/${freshCommit()}`, { state: 'failure', context: 'x' })
    expect(await read(`${REPO}/commits/${sha}/statuses`)).toEqual([])
    expect(await read(`${REPO}/commits/${sha}/status`)).toMatchObject({
      state: 'pending',
      total_count: 0,
      statuses: []
    })
  })

  it('answers 404 for the combined status of a commit GitHub does not know', async () => {
    const res = await fetch(`${sim.url}${REPO}/commits/${'0'.repeat(40)}/status`, { headers })
    expect(res.status).toBe(404)
  })

  it('lists and combines any sequence of writes as GitHub does', async () => {
    const write1 = fc.record({
      state: fc.constantFrom(...STATES),
      context: fc.constantFrom('Mintlify docs (a)', 'Mintlify docs (b)', 'ci')
    })
    await fc.assert(
      fc.asyncProperty(fc.array(write1, { maxLength: 8 }), async (writes) => {
        const sha = freshCommit()
        for (const w of writes) await write(`${REPO}/statuses/${sha}`, w)
        const listed = await read<Listed[]>(`${REPO}/commits/${sha}/statuses?per_page=100`)
        expect(listed.map(({ state, context }) => ({ state, context }))).toEqual(
          [...writes].reverse()
        )
        const latest = new Map<string, State>()
        for (const w of writes) latest.set(w.context, w.state)
        const combined = await read<Combined>(`${REPO}/commits/${sha}/status`)
        expect(combined.total_count).toBe(latest.size)
        expect(new Map(combined.statuses.map((s) => [s.context, s.state]))).toEqual(latest)
        const states = [...latest.values()]
        const expected = states.some((s) => s === 'failure' || s === 'error')
          ? 'failure'
          : states.length === 0 || states.includes('pending')
            ? 'pending'
            : 'success'
        expect(combined.state).toBe(expected)
      }),
      { numRuns: 25 }
    )
  })

  it('combines as GitHub’s description says, whatever the order', () => {
    expect(combine([])).toBe('pending')
    expect(combine([{ state: 'success' }, { state: 'pending' }])).toBe('pending')
    expect(combine([{ state: 'pending' }, { state: 'error' }])).toBe('failure')
    expect(combine([{ state: 'success' }, { state: 'success' }])).toBe('success')
  })
})

describe('the read-back commands of docs/try-it.md', () => {
  const page = readFileSync(new URL('../docs/try-it.md', import.meta.url), 'utf8')
  // Each `curl … http://127.0.0.1:8787/…` of the page, and each `…/repos/…` path after it.
  const curl = /curl [^`]*?http:\/\/127\.0\.0\.1:8787(\/[^`\s]+)/.exec(page)?.[1] ?? ''
  const more = [...page.matchAll(/`…(\/repos\/[^`\s]+)`/g)].map(([, path = '']) => path)
  const fill = (path: string) =>
    path.replace('OWNER/REPO', 'Codertocat/Hello-World').replace('SHA', HEAD).replace('NUMBER', '2')

  it('reads a commit’s statuses and a pull request’s comments', () => {
    expect(matchGitHubRoute(fill(curl), 'GET')).toMatchObject({ kind: 'listStatuses' })
    expect(more.map((path) => matchGitHubRoute(fill(path), 'GET'))).toEqual([
      expect.objectContaining({ kind: 'listComments' })
    ])
  })
})
