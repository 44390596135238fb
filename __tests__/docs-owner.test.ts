// A docs pull request is the agent's only when GitHub says so, and everything the platform names
// (a pull request link, a repository, a job id, a branch) is taken only in one strict shape.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { inShape, mergeJob, parseJob, refusedFields } from '../src/clients/mintlify/job.js'
import { AGENT_APP, notTheAgents } from '../src/given/docs.js'
import { isPullLinkShape, parsePullLink, pullName, type PullRef } from '../src/given/ref.js'

/**
 * The account Mintlify's agent opens its pull requests as, as GitHub's users API answers
 * `GET /users/mintlify%5Bbot%5D` on github.com (the fields the action reads; the id is also in
 * the platform facts the action was built from: "`mintlify[bot]` (user id 109931778)").
 */
const MINTLIFY_BOT = { login: 'mintlify[bot]', id: 109931778, type: 'Bot' }

const SERVER = 'https://github.com'
const DOCS: PullRef = { owner: 'acme', repo: 'docs', number: 101 }

describe('notTheAgents: a docs pull request GitHub shows as the agent’s', () => {
  it('knows mintlify[bot] by the login and id GitHub gives', () => {
    expect(AGENT_APP.login).toBe(MINTLIFY_BOT.login)
    expect(AGENT_APP.id).toBe(MINTLIFY_BOT.id)
    const pull = { number: 101, author: MINTLIFY_BOT.login, authorId: MINTLIFY_BOT.id }
    expect(notTheAgents(DOCS, pull, ['mintlify[bot]'], SERVER)).toBeUndefined()
  })

  const login = fc.oneof(
    fc.constantFrom('mintlify[bot]', 'Mintlify[bot]', 'octocat', 'docs-person', 'hubot'),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,10}(\[bot\])?$/)
  )
  const agents = fc
    .uniqueArray(login, { maxLength: 3 })
    .map((more) => ['mintlify[bot]', ...more.map((l) => l.toLowerCase())])
  const pull = fc.record(
    {
      number: fc.oneof(fc.constant(101), fc.integer({ min: 1, max: 200 })),
      author: login,
      authorId: fc.oneof(fc.constant(MINTLIFY_BOT.id), fc.integer({ min: 1, max: 2e8 }))
    },
    { requiredKeys: ['number'] }
  )
  const recorded = fc.option(
    fc.record({
      owner: fc.constantFrom('acme', 'ACME', 'other'),
      repo: fc.constantFrom('docs', 'handbook'),
      number: fc.constantFrom(101, 102)
    }),
    { nil: undefined }
  )
  const server = fc.constantFrom(SERVER, 'https://ghe.example.com')

  it('accepted ⇒ GitHub says one of agent-accounts opened it, the record (if any) names it, and it is the one asked for', () => {
    fc.assert(
      fc.property(pull, agents, server, recorded, (p, a, s, r) => {
        if (notTheAgents(DOCS, p, a, s, r) !== undefined) return
        expect(p.number).toBe(DOCS.number)
        expect(a).toContain(p.author?.toLowerCase())
        expect(pullName(r ?? DOCS).toLowerCase()).toBe(pullName(DOCS).toLowerCase())
        // mintlify[bot] on github.com is its own id, when GitHub gives one.
        const app = p.author?.toLowerCase() === 'mintlify[bot]' && s === SERVER
        expect(app && p.authorId !== undefined ? p.authorId : MINTLIFY_BOT.id).toBe(MINTLIFY_BOT.id)
      })
    )
  })

  it('GitHub says one of agent-accounts opened it, and nothing else differs ⇒ accepted', () => {
    fc.assert(
      fc.property(agents, server, (a, s) => {
        for (const author of a) {
          const id = author === 'mintlify[bot]' ? MINTLIFY_BOT.id : undefined
          const p = { number: DOCS.number, author: author.toUpperCase(), authorId: id }
          expect(notTheAgents(DOCS, p, a, s)).toBeUndefined()
          expect(notTheAgents(DOCS, p, a, s, { ...DOCS, owner: 'ACME' })).toBeUndefined()
        }
      })
    )
  })

  it('refused ⇒ the words name the pull request and never call it ready', () => {
    fc.assert(
      fc.property(pull, agents, server, recorded, (p, a, s, r) => {
        const why = notTheAgents(DOCS, p, a, s, r)
        if (why === undefined) return
        expect(why).toContain(pullName(DOCS))
        expect(why).toContain('writes nothing to it and never calls it ready')
      })
    )
  })

  it('refuses a person, a look-alike of the app, another id for mintlify[bot], no author, another number, another record', () => {
    const agentsOnly = ['mintlify[bot]']
    const cases: [Parameters<typeof notTheAgents>[1], PullRef | undefined][] = [
      [{ number: 101, author: 'octocat', authorId: 583231 }, undefined],
      [{ number: 101, author: 'mintlify', authorId: 1 }, undefined],
      [{ number: 101, author: 'mintlify[bot]', authorId: 42 }, undefined],
      [{ number: 101 }, undefined],
      [{ number: 7, author: 'mintlify[bot]', authorId: MINTLIFY_BOT.id }, undefined],
      [
        { number: 101, author: 'mintlify[bot]', authorId: MINTLIFY_BOT.id },
        { ...DOCS, number: 9 }
      ]
    ]
    for (const [p, r] of cases) expect(notTheAgents(DOCS, p, agentsOnly, SERVER, r)).toBeDefined()
  })
})

/** A pull request link in the strict shape, and ways of bending it out of shape. */
const owner = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,12}$/).filter((n) => n !== '..')
const strictLink = fc
  .record({ owner, repo: owner, number: fc.integer({ min: 1, max: 99999 }) })
  .map(({ owner, repo, number }) => `https://github.com/${owner}/${repo}/pull/${number}`)
const bend = fc.constantFrom(
  (l: string) => `${l}?x=1`,
  (l: string) => `${l}#files`,
  (l: string) => `${l}/files`,
  (l: string) => `${l}/`,
  (l: string) => l.replace('https://', 'http://'),
  (l: string) => l.replace('https://', 'https://user:secret@'),
  (l: string) => l.replace('https://', 'HTTPS://'),
  (l: string) => l.replace('github.com', 'GitHub.com'),
  (l: string) => l.replace('github.com', 'github.com:443'),
  (l: string) => l.replace('/pull/', '/p%75ll/'),
  (l: string) => l.replace('/pull/', '/./pull/'),
  (l: string) => l.replace('/pull/', '/pull/%31'),
  (l: string) => `${l}\u200b`,
  (l: string) => ` ${l}`,
  (l: string) => l.replace('https://github.com/', 'https://github.com\\')
)

describe('the strict shape of what the platform names', () => {
  it('takes every pull request link in the shape, as it is', () => {
    fc.assert(
      fc.property(strictLink, (link) => {
        expect(isPullLinkShape(link)).toBe(true)
        const job = parseJob({ id: 'job_1', status: 'completed', prLink: link })
        expect(job?.prLink).toBe(link)
        expect(refusedFields(job)).toEqual([])
        expect(parsePullLink(link, SERVER)).toBeDefined()
      })
    )
  })

  it('treats every bent link as absent: not in the job, its JSON or a parsed reference, and says which field', () => {
    fc.assert(
      fc.property(strictLink, bend, (link, f) => {
        const bent = f(link)
        fc.pre(bent !== link)
        expect(isPullLinkShape(bent)).toBe(false)
        expect(parsePullLink(bent, SERVER)).toBeUndefined()
        const job = parseJob({
          id: 'job_1',
          status: 'completed',
          prLink: bent,
          source: { repository: bent, ref: 'mintlify/x' }
        })
        expect(job?.prLink).toBeNull()
        expect(job?.source?.repository).toBeNull()
        expect(refusedFields(job)).toEqual(['prLink', 'source.repository'])
        expect(JSON.stringify(job)).not.toContain(bent)
      })
    )
  })

  it('takes a job id as the platform gives it, refusing only what cannot be an id', () => {
    // The platform's description gives an id as a plain string with no pattern.
    const good = fc.oneof(
      fc.constantFrom('velit in', '-x', 'a/b', 'a%2Fb', 'a\u200bb', 'é', ' ', 'a -->', '...'),
      fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
        .filter((s) => ![...s].some((c) => c <= '\u001f' || (c >= '\u007f' && c <= '\u009f')))
        .filter((s) => s !== '.' && s !== '..')
    )
    const bad = fc.oneof(
      fc.constantFrom('', '.', '..', 'a\nb', 'a\tb', 'a\u0000', 'a\u0085', '\ud800x'),
      fc.string({ minLength: 257, maxLength: 300 }).map((s) => `a${s.replace(/./g, 'b')}`)
    )
    fc.assert(fc.property(good, (id) => expect(inShape('id', id)).toBe(true)))
    fc.assert(
      fc.property(bad, (id) => {
        expect(inShape('id', id)).toBe(false)
        const job = parseJob({ id, status: 'active' })
        expect(job?.id).toBeNull()
        expect(refusedFields(job)).toEqual(['id'])
      })
    )
  })

  it('takes a branch the agent works on, and no ref a shell or a path would read twice', () => {
    for (const ref of ['mintlify/docs-update-1a2b', 'docs_2026.11', 'feature/x+y']) {
      expect(inShape('source.ref', ref)).toBe(true)
    }
    for (const ref of [
      '',
      '-x',
      '/x',
      'x/',
      'a..b',
      'a//b',
      'x.lock',
      'a b',
      'a;b',
      '$(x)',
      'a\u202eb'
    ]) {
      expect(inShape('source.ref', ref)).toBe(false)
    }
  })

  it('keeps a refusal across reads only while no answer gave the field in shape', () => {
    const bent = parseJob({
      id: 'job_1',
      status: 'active',
      prLink: 'https://github.com/a/b/pull/1?x'
    })
    expect(refusedFields(bent)).toEqual(['prLink'])
    const later = parseJob({ status: 'completed', prLink: null })
    const merged = mergeJob(bent ?? {}, later ?? {})
    expect(refusedFields(merged)).toEqual(['prLink'])
    const fixed = parseJob({ status: 'completed', prLink: 'https://github.com/a/b/pull/1' })
    expect(refusedFields(mergeJob(merged, fixed ?? {}))).toEqual([])
  })
})
