import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as core from '../__fixtures__/core.js'
import { EPOCH } from '../__fixtures__/runtime.js'
import type { Kind } from '../src/kinds/kind.js'
import type { Fetch } from '../src/clients/mintlify/transport.js'
import { known } from '../src/run/read/known.js'

jest.unstable_mockModule('@actions/core', () => core)
const { run } = await import('../src/main.js')
const { KINDS, kindOf } = await import('../src/kinds/registry.js')
const { planWords } = await import('../src/report/plan.js')

/**
 * A kind of run the action does not have: a published release, documented by a job of its own.
 * It is one module (this object: how it is told, what it reads, its reason and words, how it
 * decides) and one line in the list of kinds; the core's types take it as it is, and nothing
 * else changes.
 */
const RELEASE_WORDS = 'A published release gets a docs job of its own.'
interface ReleaseFacts {
  readonly tag: string
}
const release: Kind<ReleaseFacts> = {
  name: 'release',
  detects: (event) => event?.occasion === 'other' && event.action === 'published',
  read: () => Promise.resolve({ facts: { pulls: known([]), kind: { tag: 'v0.1.0' } } }),
  decide: (_settings, _event, facts) => ({
    act: 'create',
    jobId: '',
    why: {
      code: 'kind',
      kind: 'release',
      reason: 'published',
      words: { reason: `${RELEASE_WORDS} (${facts.kind?.tag ?? '?'})` }
    },
    effects: []
  })
}

/** `release` published, as GitHub sends it (`@octokit/webhooks-examples`). */
function releaseEnv(): NodeJS.ProcessEnv {
  const require = createRequire(import.meta.url)
  const index = require.resolve('@octokit/webhooks-examples/api.github.com/index.json')
  const all = JSON.parse(readFileSync(index, 'utf8')) as { name: string; examples: unknown[] }[]
  const payload = all
    .find((entry) => entry.name === 'release')
    ?.examples.find((e) => (e as { action?: string }).action === 'published')
  const path = join(mkdtempSync(join(tmpdir(), 'kinds-')), 'event.json')
  writeFileSync(path, JSON.stringify(payload))
  return {
    GITHUB_REPOSITORY: 'Codertocat/Hello-World',
    GITHUB_EVENT_NAME: 'release',
    GITHUB_EVENT_PATH: path,
    GITHUB_SHA: 'a'.repeat(40)
  }
}

/** The platform, answering every start with a job that completed; it records what it was sent. */
function platform() {
  const sent: string[] = []
  const fetch: Fetch = (url, init) => {
    sent.push(`${init.method} ${new URL(url).pathname}`)
    const job = {
      id: 'job_kinds',
      status: 'completed',
      prLink: 'https://github.com/acme/docs/pull/3',
      source: { repository: 'https://github.com/acme/docs', ref: 'mintlify/a' },
      createdAt: '2026-11-22T00:00:00.000Z'
    }
    const status = init.method === 'POST' ? 201 : 200
    return Promise.resolve({
      status,
      headers: { get: () => null },
      text: () => Promise.resolve(JSON.stringify(job))
    })
  }
  return { sent, fetch }
}

const clock = () => {
  let time = EPOCH
  return {
    now: () => time,
    sleep: (ms: number) => Promise.resolve(void (time += ms)),
    random: () => 0.5
  }
}

beforeEach(() => {
  core.reset()
  Object.assign(core.inputs, {
    prompt: 'Update the docs',
    'project-id': 'proj_1',
    'api-key': 'mint_kinds_test_key',
    'poll-interval': '5s'
  })
})

describe('a new kind of run: one module and one line in the list', () => {
  it('is the kind of the events it detects, tried before a change takes the rest', () => {
    const event = { occasion: 'other', action: 'published' } as Parameters<Kind['detects']>[0]
    expect(kindOf(event, [release, ...KINDS]).name).toBe('release')
    expect(kindOf(event, KINDS).name).toBe('change')
  })

  it('reads, decides and writes what its module says, through the whole run', async () => {
    const withRelease = platform()
    await run({
      ...clock(),
      env: releaseEnv(),
      fetch: withRelease.fetch,
      kinds: [release, ...KINDS]
    })
    // Its own facts reach its own decision, and its words the log, through the core unread.
    expect(withRelease.sent[0]).toBe('POST /v2/agent/proj_1/job')
    expect(core.outputs()).toMatchObject({ skipped: 'false', 'job-id': 'job_kinds' })
    expect(core.logLines().join('\n')).toContain(`${RELEASE_WORDS} (v0.1.0)`)
    expect(core.failures()).toEqual([])

    // Without its line, the same event is a change to document, in the core's words.
    core.reset()
    Object.assign(core.inputs, { prompt: 'Update the docs', 'project-id': 'proj_1' })
    Object.assign(core.inputs, { 'api-key': 'mint_kinds_test_key', 'poll-interval': '5s' })
    const without = platform()
    const seen = core.logLines().length
    await run({ ...clock(), env: releaseEnv(), fetch: without.fetch })
    expect(without.sent[0]).toBe('POST /v2/agent/proj_1/job')
    expect(core.outputs()).toMatchObject({ skipped: 'false', 'job-id': 'job_kinds' })
    expect(core.logLines().slice(seen).join('\n')).not.toContain(RELEASE_WORDS)
  })
})

describe("a kind's words: shown only after the core makes them safe", () => {
  it('keeps them to one line with no workflow command, its own and the reason it goes on to', () => {
    const words = { reason: 'Taken\n::error::forged', check: 'a\u0007bell', note: '::warning::x' }
    const plan = {
      act: 'create',
      jobId: '',
      why: {
        code: 'kind',
        kind: 'toy',
        reason: 'toy',
        words,
        then: { code: 'change', text: 'Then.' }
      }
    } as const
    const shown = planWords(plan)
    for (const text of [shown.reason, shown.check, shown.note]) {
      expect(text).toBeDefined()
      expect([text?.includes('\n'), text?.includes('\u0007')]).toEqual([false, false])
      expect(text).not.toMatch(/^::/)
    }
    expect(shown.reason).toContain('Then.')
  })
})

/** Every source file, by its path from the repository's root. */
function sources(): { path: string; text: string }[] {
  const root = fileURLToPath(new URL('..', import.meta.url))
  return readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => {
      const path = relative(root, join(root, 'src', file))
        .split('\\')
        .join('/')
      return { path, text: readFileSync(join(root, path), 'utf8') }
    })
}

describe('what started the run is told in one place', () => {
  // The parser reads the event's name once (event-name.test.ts); the kinds tell runs apart by
  // what it made of it.
  const allowed = (path: string) => path === 'src/given/event.ts' || path.startsWith('src/kinds/')
  const tells = [/\boccasion\b/, /REVIEW_EVENTS/]

  it('no file outside the event parser and the kinds reads what kind of event it is', () => {
    const found = sources().flatMap(({ path, text }) =>
      allowed(path) ? [] : tells.filter((tell) => tell.test(text)).map((tell) => `${path}: ${tell}`)
    )
    expect(found).toEqual([])
  })

  it('would see one that did', () => {
    const text = 'if (REVIEW_EVENTS.has(name)) return\nconst a = event.occasion'
    expect(tells.filter((tell) => tell.test(text))).toHaveLength(2)
  })
})
