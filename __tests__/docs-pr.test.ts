import { describe, expect, it } from '@jest/globals'
import { fedChange } from '../src/run/change/fed.js'
import { named, type Event } from '../src/given/event.js'
import {
  type Account,
  type GitHubApi,
  GitHubError,
  type IssueComment,
  type PullState
} from '../src/clients/github/api.js'
import type { DocsReviewers } from '../src/given/inputs/names.js'
import {
  backlinkBody,
  closingComment,
  docsFailure,
  noDocsToken,
  reviewersRefused
} from '../src/report/docs-pr.js'
import {
  MAX_BACKLINK_CHANGES,
  readBacklink,
  withChange,
  type Backlink,
  type FedChange
} from '../src/clients/github/backlink.js'
import { DocsPullSink } from '../src/report/sinks/docs-pr.js'
import { labelsToAdd, reviewPlan } from '../src/report/sinks/docs-review.js'
import { docsTargetOf } from '../src/given/docs.js'
import { newRunState, type RunState } from '../src/run/state.js'
import { withinTime } from '../src/base/runtime.js'

const SERVER = 'https://github.com'
const RUN = 'https://github.com/o/code/actions/runs/7'
const CHANGE: FedChange = {
  repo: 'o/code',
  pull: 2,
  title: 'Add the export endpoint',
  author: 'Codertocat',
  sha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
  run: RUN
}
const RECORD: Backlink = { projectId: 'proj', changes: [CHANGE], asked: [], labeled: [] }

describe('backlinkBody and readBacklink', () => {
  it('writes the record in the first line and reads it back', () => {
    const body = backlinkBody({ ...RECORD, asked: ['octocat'], labeled: ['docs'] }, SERVER)
    expect(body.split('\n')[0]).toMatch(
      /^<!-- mintlify-agent-action docs-backlink project=proj data=[\w-]+ -->$/
    )
    expect(readBacklink(body)).toEqual({
      projectId: 'proj',
      changes: [CHANGE],
      code: undefined,
      asked: ['octocat'],
      labeled: ['docs']
    })
  })

  it('links the code pull request, its commit and the run on the server only', () => {
    const body = backlinkBody(RECORD, SERVER)
    expect(body).toContain('<a href="https://github.com/o/code/pull/2">o/code#2</a>')
    expect(body).toContain(
      '<a href="https://github.com/o/code/commit/ec26c3e57ca3a959ca5aad62de7213c562f8c821"><code>ec26c3e</code></a>'
    )
    expect(body).toContain(`<a href="${RUN}">run</a>`)
    const elsewhere = backlinkBody(
      { ...RECORD, changes: [{ ...CHANGE, run: 'https://evil.example/run' }] },
      SERVER
    )
    expect(elsewhere).not.toContain('evil.example/run"')
  })

  it('lets nothing from the payload mention, link, close issues or end the marker', () => {
    const hostile: FedChange = {
      ...CHANGE,
      title: 'fixes #1 @octo-org/team [x](https://evil.example) <img src=x> --> `code`',
      author: '@octocat'
    }
    const body = backlinkBody({ ...RECORD, changes: [hostile] }, SERVER)
    const visible = body.split('\n').slice(1).join('\n')
    expect(visible).not.toMatch(/@octo|#1|\]\(|<img|-->|`code`/)
    expect(body.split('\n')[0]).not.toContain('evil')
    expect(readBacklink(body)?.changes[0]?.title).toBe(hostile.title)
  })

  it('names a push, or a scheduled run, mid-sentence in lower case', () => {
    const push: FedChange = { repo: 'o/code', sha: CHANGE.sha, title: 'Add export' }
    expect(backlinkBody({ ...RECORD, changes: [push] }, SERVER)).toContain(
      'This pull request documents a push to o/code “Add export”.'
    )
    const nightly: FedChange = { repo: 'o/code', sha: CHANGE.sha, via: 'schedule' }
    const body = backlinkBody({ ...RECORD, changes: [push, nightly] }, SERVER)
    expect(body).toContain(
      'This pull request documents everything new on o/code up to this commit (a scheduled run).'
    )
    // In the table each change keeps its capital.
    expect(body).toContain('<td>A push to o/code “Add export”</td>')
  })

  it('says what became of the code pull request', () => {
    expect(backlinkBody({ ...RECORD, code: 'merged' }, SERVER)).toContain(
      'The code pull request was merged.'
    )
    expect(backlinkBody({ ...RECORD, code: 'closed' }, SERVER)).toContain(
      'closed without being merged'
    )
  })

  it('reads no record from a marker that does not open the body, or a garbled one', () => {
    const body = backlinkBody(RECORD, SERVER)
    expect(readBacklink(`Quoted:\n${body}`)).toBeUndefined()
    expect(
      readBacklink('<!-- mintlify-agent-action docs-backlink project=proj data=%%% -->')
    ).toBeUndefined()
    const forged = Buffer.from(
      JSON.stringify({
        changes: [
          { repo: 'a b/c', pull: 1 },
          { repo: 'o/r', sha: 'xyz' }
        ]
      })
    ).toString('base64url')
    expect(
      readBacklink(`<!-- mintlify-agent-action docs-backlink project=p data=${forged} -->`)?.changes
    ).toEqual([expect.objectContaining({ repo: 'o/r', sha: undefined })])
  })
})

describe('withChange', () => {
  it('adds each run once, newest last, and keeps the last entries only', () => {
    let changes: FedChange[] = []
    for (let n = 1; n <= MAX_BACKLINK_CHANGES + 5; n++) {
      changes = withChange(changes, { ...CHANGE, run: `${RUN}${n}` })
    }
    expect(changes).toHaveLength(MAX_BACKLINK_CHANGES)
    expect(changes.at(-1)?.run).toBe(`${RUN}${MAX_BACKLINK_CHANGES + 5}`)
    expect(withChange(changes, changes.at(-1) ?? CHANGE)).toEqual(changes)
  })
})

describe('fedChange', () => {
  const base = { owner: 'o', repo: 'code', serverUrl: SERVER, deleted: false, commits: [] }
  it('names the pull request of a pull request event', () => {
    const event = {
      ...base,
      ...named('pull_request'),
      pullRequest: { number: 2, title: 'T', body: '', author: 'a', headSha: CHANGE.sha }
    } as Event
    expect(fedChange(event, RUN)).toEqual({
      repo: 'o/code',
      pull: 2,
      title: 'T',
      author: 'a',
      sha: CHANGE.sha,
      run: RUN
    })
  })

  it('names the pushed commits of a push', () => {
    const event = {
      ...base,
      ...named('push'),
      after: CHANGE.sha,
      commits: [
        { sha: 'a'.repeat(40), message: 'First' },
        { sha: CHANGE.sha, message: 'Second line one\n\nmore', author: 'Mona' }
      ]
    } as unknown as Event
    expect(fedChange(event, undefined)).toEqual({
      repo: 'o/code',
      title: 'Second line one',
      author: 'Mona',
      sha: CHANGE.sha,
      commits: 2,
      run: undefined
    })
  })
})

describe('closingComment', () => {
  const code = { owner: 'o', repo: 'code', number: 2 }
  it('says why the docs pull request was closed, with a marker of its own', () => {
    const text = closingComment('proj', code, SERVER, 'close')
    expect(text.split('\n')[0]).toBe('<!-- mintlify-agent-action docs-closed project=proj -->')
    expect(text).toContain('<a href="https://github.com/o/code/pull/2">o/code#2</a>')
    expect(text).toContain('so this pull request was closed too')
  })

  it('only says it may no longer be needed with on-code-closed: comment', () => {
    const text = closingComment('proj', code, SERVER, 'comment')
    expect(text).toContain('may no longer be needed')
    expect(text).not.toContain('was closed too')
  })
})

describe("the log's words about the docs pull request", () => {
  const docs = { owner: 'o', repo: 'docs', number: 7 }
  const refused = new GitHubError('GitHub refused (HTTP 403)', 'refused', 403)

  it('says what docs-token needs on the docs repository when GitHub refuses it', () => {
    const text = docsFailure('read o/docs#7', refused, 'pull-requests: read', 'docs-token')
    expect(text).toBe(
      'Could not read o/docs#7: GitHub refused docs-token (HTTP 403): give docs-token access to ' +
        'the docs repository with `pull-requests: read` (the repository access of a ' +
        "fine-grained token, or a GitHub App installed there; the workflow's `permissions:` do " +
        'not apply to it).'
    )
    const named = docsFailure(
      'read o/docs#7',
      refused,
      'pull-requests: read',
      'docs-token',
      'o/docs'
    )
    expect(named).toContain('give docs-token access to o/docs with `pull-requests: read`')
    expect(named).not.toContain('list it under')
  })

  it("points the workflow token at the workflow's permissions, and names the token that failed", () => {
    const workflow = docsFailure('close o/code#7', refused, 'pull-requests: write', 'github-token')
    expect(workflow).toMatch(
      /^Could not close o\/code#7: GitHub refused \(HTTP 403\): github-token/
    )
    expect(workflow).toContain('list it under `permissions:`')
    const unknown = new GitHubError('GitHub refused (HTTP 401)', 'refused', 401)
    expect(docsFailure('read o/docs#7', unknown, 'pull-requests: read', 'docs-token')).toBe(
      'Could not read o/docs#7: docs-token was not accepted (HTTP 401).'
    )
    const server = new GitHubError('GitHub answered HTTP 502', 'server', 502)
    expect(docsFailure('read o/docs#7', server, 'pull-requests: read', 'docs-token')).toBe(
      'Could not read o/docs#7: GitHub answered HTTP 502.'
    )
  })

  it('asks for docs-token by name when the docs pull request is out of reach', () => {
    expect(noDocsToken(docs)).toMatch(/^Docs pull request o\/docs#7 is in another repository/)
    expect(noDocsToken(docs)).toContain('give docs-token')
  })

  it('names the reviewers GitHub would not ask, as plain text', () => {
    const text = reviewersRefused(['stranger', 'o/\u001b[31mteam\n::error::x'], docs)
    expect(text).toMatch(/^Could not ask stranger, o\/.*team.* to review o\/docs#7: /)
    expect(text).not.toContain('\n')
    expect(text).not.toContain('\u001b')
    expect(text).toContain('these are not asked again')
  })
})

describe('reviewPlan', () => {
  const wanted: DocsReviewers = {
    users: ['octocat', 'Hubot', 'docs-bot'],
    teams: [
      { org: 'acme', slug: 'writers' },
      { org: 'other', slug: 'team' }
    ],
    author: true
  }
  const pull = { author: 'docs-bot', reviewers: ['hubot'], teams: [] }

  it('asks everyone not asked yet, but never the pull request’s author', () => {
    expect(reviewPlan(wanted, 'Codertocat', pull, 'acme', [])).toEqual({
      users: ['octocat', 'Codertocat'],
      teams: ['writers'],
      skipped: ['other/team']
    })
  })

  it('skips names asked by an earlier run or already asked on the pull request', () => {
    const plan = reviewPlan(wanted, 'Codertocat', { ...pull, teams: ['writers'] }, 'ACME', [
      'octocat',
      'codertocat'
    ])
    expect(plan.users).toEqual([])
    expect(plan.teams).toEqual([])
  })

  it('reads author as nobody on a push, or when the author is an app', () => {
    expect(reviewPlan(wanted, undefined, pull, 'acme', []).users).toEqual(['octocat'])
    expect(reviewPlan(wanted, 'dependabot[bot]', pull, 'acme', []).users).toEqual(['octocat'])
  })
})

describe('labelsToAdd', () => {
  it('adds only labels the pull request lacks and no run added before', () => {
    expect(labelsToAdd(['docs', 'Review', 'new'], ['DOCS'], ['review'])).toEqual(['new'])
  })
})

describe('docsTargetOf', () => {
  const code = { owner: 'o', repo: 'code' }
  const DOCS_REPO = 'https://github.com/acme/docs'
  const job = (prLink: string, repository: string | null = DOCS_REPO) => ({
    prLink,
    source: { repository }
  })
  it("accepts a pull request on the server, in the job's own docs repository", () => {
    expect(docsTargetOf(job('https://github.com/acme/docs/pull/7'), SERVER, code)).toEqual({
      ref: { owner: 'acme', repo: 'docs', number: 7 },
      inCodeRepo: false
    })
    expect(
      docsTargetOf(
        job('https://github.com/ACME/Docs/pull/7', 'https://github.com/acme/docs.git'),
        SERVER,
        code
      )
    ).toEqual({ ref: { owner: 'ACME', repo: 'Docs', number: 7 }, inCodeRepo: false })
  })

  it('has nothing to say about a job without a pull request link', () => {
    expect(docsTargetOf({ prLink: null }, SERVER, code)).toBeUndefined()
    expect(docsTargetOf(undefined, SERVER, code)).toBeUndefined()
  })

  it.each([
    'https://evil.example/acme/docs/pull/7',
    'http://github.com/acme/docs/pull/7',
    'https://github.com:8443/acme/docs/pull/7',
    'https://token@github.com/acme/docs/pull/7',
    'https://github.com/acme/docs/issues/7',
    'https://github.com/acme/docs',
    'not a link'
  ])('refuses %s', (link) => {
    expect(docsTargetOf(job(link), SERVER, code)).toEqual({
      problem: expect.stringContaining('no token is sent') as unknown as string
    })
  })

  it.each([
    ['another repository of the same host', 'https://github.com/acme/other/pull/7', DOCS_REPO],
    ['another owner', 'https://github.com/evil/docs/pull/7', DOCS_REPO],
    ['a job that names no docs repository', 'https://github.com/acme/docs/pull/7', null],
    [
      'a docs repository on another host',
      'https://github.com/acme/docs/pull/7',
      'https://evil.example/acme/docs'
    ]
  ])('refuses a link into %s', (_, link, repository) => {
    expect(docsTargetOf(job(link, repository), SERVER, code)).toEqual({
      problem: expect.stringContaining('no token is sent') as unknown as string
    })
  })

  it('knows the code repository itself, and follows a server with a path', () => {
    expect(
      docsTargetOf(
        job('https://github.com/O/Code/pull/7', 'https://github.com/o/code'),
        SERVER,
        code
      )
    ).toEqual({ ref: { owner: 'O', repo: 'Code', number: 7 }, inCodeRepo: true })
    expect(
      docsTargetOf(
        job('https://ghe.example/git/acme/docs/pull/3', 'https://ghe.example/git/acme/docs'),
        'https://ghe.example/git',
        code
      )
    ).toEqual({ ref: { owner: 'acme', repo: 'docs', number: 3 }, inCodeRepo: false })
  })
})

/** The docs token's account, as REST and GraphQL's `viewer` name it. */
const DOCS_BOT: Account = { login: 'docs-bot', id: 5001, bot: false }

/** A docs repository in memory, recording every call. */
function fakeDocs(
  options: {
    comments?: IssueComment[]
    pull?: Partial<PullState>
    refuse?: string[]
    createFails?: 'server' | 'refused'
  } = {}
) {
  const comments = options.comments ?? []
  const pull: PullState = {
    number: 101,
    state: 'open',
    merged: false,
    author: 'mintlify[bot]',
    labels: [],
    reviewers: [],
    teams: [],
    ...options.pull
  }
  const calls: string[] = []
  let nextId = 500
  const api = {
    viewer: () => Promise.resolve(DOCS_BOT),
    getPull: (o: string, r: string, n: number) => {
      calls.push(`getPull ${o}/${r}#${n}`)
      return Promise.resolve(pull)
    },
    listComments: () => {
      calls.push('list')
      return Promise.resolve({ comments, lastPage: 1 })
    },
    createComment: (_o: string, _r: string, _n: number, body: string) => {
      calls.push('create')
      const made = { id: nextId++, body, author: DOCS_BOT, url: `https://x/${nextId}` }
      comments.push(made)
      if (options.createFails === 'server') {
        return Promise.reject(new GitHubError('GitHub answered HTTP 502', 'server', 502))
      }
      if (options.createFails === 'refused') {
        return Promise.reject(new GitHubError('GitHub refused (HTTP 403)', 'refused', 403))
      }
      return Promise.resolve(made)
    },
    updateComment: (_o: string, _r: string, id: number, body: string) => {
      calls.push(`update ${id}`)
      const comment = comments.find((c) => c.id === id)
      if (comment) Object.assign(comment, { body })
      return Promise.resolve({ id, body, author: DOCS_BOT, url: `https://x/${id}` })
    },
    requestReviewers: (
      _o: string,
      _r: string,
      _n: number,
      who: { users: readonly string[]; teams: readonly string[] }
    ) => {
      calls.push(`review ${[...who.users, ...who.teams].join(',')}`)
      if (who.users.some((u) => options.refuse?.includes(u))) {
        return Promise.reject(Object.assign(new Error('Validation'), { status: 422 }))
      }
      return Promise.resolve()
    },
    addLabels: (_o: string, _r: string, _n: number, labels: readonly string[]) => {
      calls.push(`label ${labels.join(',')}`)
      return Promise.resolve()
    },
    closePull: () => {
      calls.push('close')
      return Promise.resolve({ ...pull, state: 'closed' })
    }
  } as unknown as GitHubApi
  return { api, calls, comments }
}

function stateFor(event: Partial<Event> = {}, prLink = 'https://github.com/acme/docs/pull/101') {
  const state: RunState = newRunState(0)
  const whole = {
    ...named('pull_request'),
    owner: 'o',
    repo: 'code',
    serverUrl: SERVER,
    deleted: false,
    commits: [],
    pullRequest: { number: 2, title: 'T', body: '', author: 'Codertocat', headSha: CHANGE.sha },
    ...event
  } as Event
  Object.assign(state, {
    projectId: 'proj',
    job: {
      id: 'job_1',
      status: 'completed',
      prLink,
      source: { repository: 'https://github.com/acme/docs', ref: null }
    },
    outcome: { kind: 'finished', phase: 'completed' },
    trigger: { event: whole, pull: { owner: 'o', repo: 'code', number: 2 }, runUrl: RUN }
  })
  return state
}

function sink(api: GitHubApi, more: Partial<ConstructorParameters<typeof DocsPullSink>[1]> = {}) {
  const log = { info: [] as string[], warning: [] as string[], debug: [] as string[] }
  const docs = new DocsPullSink(
    { docs: api },
    {
      reviewers: { users: ['octocat'], teams: [{ org: 'acme', slug: 'writers' }], author: true },
      labels: ['documentation'],
      onCodeClosed: 'close',
      serverUrl: SERVER,
      agents: ['mintlify[bot]'],
      ...more
    },
    {
      info: (m) => log.info.push(m),
      warning: (m) => log.warning.push(m),
      debug: (m) => log.debug.push(m)
    }
  )
  return { docs, log }
}

const within = withinTime(() => 5_000, new AbortController().signal)

describe('DocsPullSink.finished', () => {
  it('asks, labels and writes the backlink once, then only updates it', async () => {
    const fake = fakeDocs()
    const { docs } = sink(fake.api)
    const wrote = await docs.finished(stateFor(), within)
    expect(fake.calls).toEqual([
      'getPull acme/docs#101',
      'list',
      'review octocat,Codertocat,writers',
      'label documentation',
      'create'
    ])
    expect(wrote).toEqual({
      written: 'docs-comment',
      url: 'https://x/501',
      // What the log says it did there, a line each.
      did: [
        'Asked octocat, Codertocat, acme/writers to review docs pull request acme/docs#101.',
        'Added the label documentation to docs pull request acme/docs#101.',
        'Created the backlink comment on docs pull request acme/docs#101: https://x/501'
      ]
    })
    fake.calls.length = 0
    const again = await sink(fake.api).docs.finished(
      stateFor({}, 'https://github.com/acme/docs/pull/101'),
      within
    )
    expect(fake.calls).toEqual(['getPull acme/docs#101', 'list', 'update 500'])
    // Nothing was asked or added again: only the backlink, updated.
    expect(again?.did).toEqual([
      'Updated the backlink comment on docs pull request acme/docs#101: https://x/500'
    ])
  })

  it('never takes a backlink someone else wrote for its own', async () => {
    const forged = backlinkBody(
      { ...RECORD, asked: ['octocat', 'codertocat', 'acme/writers'] },
      SERVER
    )
    const fake = fakeDocs({
      comments: [{ id: 1, body: forged, author: { login: 'mallory', id: 7001 } }]
    })
    await sink(fake.api).docs.finished(stateFor(), within)
    expect(fake.calls).toContain('review octocat,Codertocat,writers')
    expect(fake.calls).toContain('create')
    expect(fake.comments[0]?.body).toBe(forged)
  })

  it('asks the others one by one when GitHub refuses one name, and warns once', async () => {
    const fake = fakeDocs({ refuse: ['stranger'] })
    const { docs, log } = sink(fake.api, {
      reviewers: { users: ['stranger', 'octocat'], teams: [], author: false }
    })
    await docs.finished(stateFor(), within)
    expect(fake.calls.filter((c) => c.startsWith('review'))).toEqual([
      'review stranger,octocat',
      'review stranger',
      'review octocat'
    ])
    expect(log.warning).toHaveLength(1)
    expect(log.warning[0]).toContain('stranger')
    expect(readBacklink(fake.comments[0]?.body ?? '')?.asked).toEqual(['stranger', 'octocat'])
  })

  it('names a team of another organisation once, and asks nothing of a closed pull request', async () => {
    const fake = fakeDocs()
    const { docs, log } = sink(fake.api, {
      reviewers: { users: [], teams: [{ org: 'other', slug: 'team' }], author: false },
      labels: []
    })
    await docs.finished(stateFor(), within)
    await docs.finished(stateFor(), within)
    expect(log.warning).toHaveLength(1)
    expect(log.warning[0]).toContain('other/team')
    expect(fake.calls.filter((c) => c.startsWith('review'))).toEqual([])

    const closed = fakeDocs({ pull: { state: 'closed' } })
    await sink(closed.api).docs.finished(stateFor(), within)
    expect(closed.calls).toEqual(['getPull acme/docs#101', 'list', 'create'])
  })

  it('looks for the backlink before writing again when a create may have landed', async () => {
    const fake = fakeDocs({ createFails: 'server' })
    const { docs, log } = sink(fake.api)
    const wrote = await docs.finished(stateFor(), within)
    expect(fake.calls.filter((c) => c === 'create')).toHaveLength(1)
    expect(wrote?.url).toBe('https://x/501')
    expect(log.warning).toEqual([])
  })

  it('stops at the first refusal, with one warning', async () => {
    const fake = fakeDocs({ createFails: 'refused' })
    const { docs, log } = sink(fake.api, {
      reviewers: { users: [], teams: [], author: false },
      labels: []
    })
    await docs.finished(stateFor(), within)
    await docs.finished(stateFor(), within)
    expect(fake.calls.filter((c) => c === 'create')).toHaveLength(1)
    expect(log.warning).toHaveLength(1)
    expect(log.warning[0]).toContain('docs-token')
  })

  it('sends nothing for a link on another host, and does nothing without a link', async () => {
    const fake = fakeDocs()
    const { docs, log } = sink(fake.api)
    await docs.finished(stateFor({}, 'https://gitlab.example/acme/docs/pull/101'), within)
    await docs.finished(stateFor({}, ''), within)
    expect(fake.calls).toEqual([])
    expect(log.warning).toHaveLength(1)
  })
})

describe('DocsPullSink.closed', () => {
  const closed = {
    action: 'closed',
    pullRequest: { number: 2, title: 'T', body: '', merged: false }
  }
  const merged = {
    action: 'closed',
    pullRequest: { number: 2, title: 'T', body: '', merged: true }
  }

  it('closes the docs pull request, says why, and records it in the backlink', async () => {
    const fake = fakeDocs({
      comments: [{ id: 9, body: backlinkBody(RECORD, SERVER), author: DOCS_BOT }]
    })
    const { docs } = sink(fake.api, { closed: 'closed' })
    const note = await docs.closed(stateFor(closed), within)
    expect(fake.calls).toEqual(['getPull acme/docs#101', 'list', 'close', 'create', 'update 9'])
    expect(note).toBe(
      'The code pull request was closed without merging, so docs pull request acme/docs#101 was closed.'
    )
    expect(readBacklink(fake.comments[0]?.body ?? '')?.code).toBe('closed')
    // A second closed run finds the backlink says so, and does nothing more.
    fake.calls.length = 0
    expect(await docs.closed(stateFor(closed), within)).toBeUndefined()
    expect(fake.calls).toEqual(['getPull acme/docs#101', 'list'])
  })

  it('only comments with on-code-closed: comment, and sends nothing with nothing', async () => {
    const fake = fakeDocs()
    await sink(fake.api, { onCodeClosed: 'comment', closed: 'closed' }).docs.closed(
      stateFor(closed),
      within
    )
    expect(fake.calls).not.toContain('close')
    expect(fake.comments.map((c) => c.body.split('\n')[0])).toEqual([
      '<!-- mintlify-agent-action docs-closed project=proj -->',
      expect.stringContaining('docs-backlink') as unknown as string
    ])
    const quiet = fakeDocs()
    await sink(quiet.api, { onCodeClosed: 'nothing', closed: 'closed' }).docs.closed(
      stateFor(closed),
      within
    )
    expect(quiet.calls).toEqual([])
  })

  it('leaves a docs pull request someone already closed, and notes a merge only', async () => {
    const done = fakeDocs({ pull: { state: 'closed' } })
    await sink(done.api, { closed: 'closed' }).docs.closed(stateFor(closed), within)
    expect(done.calls).not.toContain('close')
    expect(done.comments).toHaveLength(1)

    const fake = fakeDocs()
    const { docs } = sink(fake.api, { closed: 'merged' })
    expect(await docs.closed(stateFor(merged), within)).toBeUndefined()
    expect(fake.calls).not.toContain('close')
    expect(readBacklink(fake.comments[0]?.body ?? '')?.code).toBe('merged')
  })

  it('does nothing at the end of a run on a closed event', async () => {
    const fake = fakeDocs()
    await sink(fake.api, { closed: 'closed' }).docs.finished(stateFor(closed), within)
    expect(fake.calls).toEqual([])
  })
})
