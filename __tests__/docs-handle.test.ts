// A docs pull request is written to only through a handle proven from GitHub's answer and the
// record. The `@ts-expect-error` lines are the compiler's half of the test: `npm run typecheck`
// fails if any of them stops being an error, that is, if an unproven pull request could reach
// a write or be called ready.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { agentsPull } from '../__fixtures__/docs-pull.js'
import type { GitHubApi, PullState } from '../src/clients/github/api.js'
import { DocsHandle, ProvenPull } from '../src/clients/github/docs-handle.js'
import type { DocsPull } from '../src/clients/github/docs-pull.js'

const REF = { owner: 'acme', repo: 'docs', number: 101 }
const RULES = { agents: ['mintlify[bot]'], serverUrl: 'https://github.com' }
const pull = (more: Partial<PullState> = {}): PullState => ({
  number: 101,
  state: 'open',
  merged: false,
  author: 'mintlify[bot]',
  authorId: 109931778,
  labels: [],
  reviewers: [],
  teams: [],
  ...more
})

/** A GitHub that records where each write went. */
function recording() {
  const calls: string[] = []
  const at = (what: string) => (owner: string, repo: string, n: number) => {
    calls.push(`${what} ${owner}/${repo}#${n}`)
    return Promise.resolve(undefined as never)
  }
  const api = {
    addLabels: at('label'),
    requestReviewers: at('review'),
    closePull: at('close'),
    createComment: at('comment'),
    listComments: at('list'),
    updateComment: (owner: string, repo: string, id: number) => {
      calls.push(`update ${owner}/${repo} comment ${id}`)
      return Promise.resolve(undefined as never)
    },
    viewer: () => Promise.resolve({ login: 'docs-writer[bot]', id: 1, bot: true })
  } as unknown as GitHubApi
  return { api, calls }
}

const signal = new AbortController().signal

describe('the compiler refuses an unproven docs pull request', () => {
  it('no proof or handle can be made but through prove and of', () => {
    // @ts-expect-error A proof has no public constructor.
    const forged: unknown = new ProvenPull(REF, pull())
    // @ts-expect-error A look-alike object is not a proof: the private field makes it nominal.
    const lookalike: ProvenPull = { ref: REF, pull: pull(), is: () => true }
    // @ts-expect-error A handle has no public constructor.
    const handle: unknown = new DocsHandle(lookalike, recording().api, 'docs-token')
    // @ts-expect-error An open docs pull request without its proof is not a state the run keeps.
    const ready: DocsPull = { state: 'open', ref: REF }
    // @ts-expect-error A handle needs a proof, not GitHub's answer.
    DocsHandle.of(pull(), recording().api, 'docs-token')
    expect([forged, lookalike, handle, ready]).toHaveLength(4)
  })
})

describe('proving a docs pull request', () => {
  it("is GitHub's answer showing the agent opened it, and the record's when there is one", () => {
    expect(ProvenPull.prove(REF, pull(), RULES)).toBeInstanceOf(ProvenPull)
    const recorded = ProvenPull.prove(REF, pull(), { ...RULES, recorded: REF })
    expect(recorded).toBeInstanceOf(ProvenPull)
  })

  it.each<[string, PullState, PullRef | undefined]>([
    ["a person's", pull({ author: 'octocat', authorId: 583231 }), undefined],
    ['an account with the agent’s login and another id', pull({ authorId: 7 }), undefined],
    ['another pull request than asked', pull({ number: 102 }), undefined],
    ['another than the record names', pull(), { ...REF, number: 150 }],
    ['one in another repository than the record’s', pull(), { ...REF, repo: 'handbook' }]
  ])('refuses %s', (_name, answer, recorded) => {
    const proven = ProvenPull.prove(REF, answer, { ...RULES, recorded })
    expect(proven).toHaveProperty('refused')
  })
})

type PullRef = typeof REF

describe('a handle writes only to the pull request it was proven for', () => {
  it('labels, reviews, close and comments go to that pull request, whatever thread is named', async () => {
    const { api, calls } = recording()
    const proven = ProvenPull.prove(REF, pull(), RULES)
    if (!(proven instanceof ProvenPull)) throw new Error('not proven')
    const handle = DocsHandle.of(proven, api, 'docs-token')
    await handle.addLabels(['docs'], signal)
    await handle.requestReviewers({ users: ['octocat'], teams: [] }, signal)
    await handle.close(signal)
    const thread = handle.thread()
    await thread.createComment('someone', 'else', 7, 'body', signal)
    await thread.listComments('someone', 'else', 7, 1, signal)
    await thread.updateComment('someone', 'else', 99, 'body', signal)
    expect(calls).toEqual([
      'label acme/docs#101',
      'review acme/docs#101',
      'close acme/docs#101',
      'comment acme/docs#101',
      'list acme/docs#101',
      'update acme/docs comment 99'
    ])
  })

  it('the run keeps a proof only for a pull request read as open, merged or closed', () => {
    const open = agentsPull(REF)
    expect(open.proven?.is(REF)).toBe(true)
    expect(open.proven?.is({ ...REF, number: 102 })).toBe(false)
  })
})

describe('the proof, over every answer and record', () => {
  const repo = fc.constantFrom('docs', 'handbook')
  const ref = fc.record({
    owner: fc.constant('acme'),
    repo,
    number: fc.constantFrom(101, 150)
  })
  const author = fc.constantFrom(
    { author: 'mintlify[bot]', authorId: 109931778 },
    { author: 'mintlify[bot]', authorId: 7 },
    { author: 'octocat', authorId: 583231 },
    { author: undefined, authorId: undefined }
  )
  it('a pull request is proven exactly when GitHub shows the agent opened it and it is the recorded one', () => {
    fc.assert(
      fc.property(
        ref,
        author,
        fc.option(ref, { nil: undefined }),
        fc.boolean(),
        (asked, by, recorded, sameNumber) => {
          const answer = pull({ ...by, number: sameNumber ? asked.number : asked.number + 1 })
          const proven = ProvenPull.prove(asked, answer, { ...RULES, recorded })
          const agents = by.author === 'mintlify[bot]' && by.authorId === 109931778
          const theRecorded =
            !recorded || (recorded.repo === asked.repo && recorded.number === asked.number)
          return proven instanceof ProvenPull === (agents && theRecorded && sameNumber)
        }
      )
    )
  })
})
