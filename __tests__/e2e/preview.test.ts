// The built action asking Mintlify for a preview of the docs pull request's branch, on GitHub's
// example pull request events, against the simulator's preview routes as published (202
// {statusId, previewUrl}; update status queued, in_progress, success or failure; 403 on a plan
// without previews; 429 with Retry-After; a 5xx).
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  onEvent,
  QUICK,
  ROOT,
  runAction,
  type Scenario,
  type Simulator,
  WITH_GITHUB,
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const CONTEXT = `Mintlify docs (${QUICK['project-id']})`
const BRANCH = 'mintlify/agent-1'
const SITE = 'https://acme-mintlify-agent-1.mintlify.app'

/** The agent's docs pull request, open, on the branch the simulator's first job names. */
const DOCS_PULL = {
  github: {
    pulls: { 'acme/docs#101': { user: 'mintlify[bot]', head: { ref: BRANCH } } }
  }
}

const start = (scenario: Scenario = {}) =>
  sims.start({ ...DOCS_PULL, ...scenario, preview: { buildMs: 500, ...scenario.preview } })

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': 'ghs_workflow_token_0123',
  ...more
})

const opened = (sim: Simulator, extra: Record<string, string> = {}) =>
  onEvent(sim, 'pull_request', 'pull_request-opened.json', extra)

const previewPosts = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/project/preview/'))
const statusReads = (sim: Simulator) =>
  sim.requests.filter((r) => r.path.startsWith('/v1/project/update-status/'))
const statusComment = (sim: Simulator) =>
  sim.comments.find((c) => c.issueNumber === 2 && c.repo === 'Hello-World')?.body ?? ''
const lastCheck = (sim: Simulator) =>
  sim.github.statuses.filter((s) => s.context === CONTEXT).at(-1)
/** The agent pushed to its docs pull request: GitHub now shows its head at `sha`. */
const moveDocsHead = (sim: Simulator, sha: string) =>
  sim.setScenario({
    github: { pulls: { 'acme/docs#101': { user: 'mintlify[bot]', head: { ref: BRANCH, sha } } } }
  })
const MOVED = 'd0c5'.repeat(10)

/** A commit pushed to the code pull request after the first run's. */
const NEW_CODE = 'c0de'.repeat(10)

/** GitHub's example `synchronize` of pull request #2, its head now at `sha`, as GitHub shows it. */
const pushedToPull = (sim: Simulator, sha: string) => {
  const fixture = join(ROOT, '__fixtures__', 'events', 'pull_request-synchronize.json')
  const payload = JSON.parse(readFileSync(fixture, 'utf8')) as {
    pull_request: { head: { sha: string } }
  }
  payload.pull_request.head.sha = sha
  const path = join(mkdtempSync(join(tmpdir(), 'synchronize-')), 'event.json')
  writeFileSync(path, JSON.stringify(payload))
  sim.setScenario({ github: { pulls: { 2: { head: { sha } } } } })
  return onEvent(sim, 'pull_request', 'pull_request-synchronize.json', {
    GITHUB_EVENT_PATH: path,
    GITHUB_RUN_ID: '4243'
  })
}
const notices = (log: string) => log.split('\n').filter((line) => line.startsWith('::notice'))

describe('a completed job with an open docs pull request', () => {
  it('asks once for a preview of its branch, follows it to success and links it', async () => {
    const sim = await start()
    const run = await runAction(inputs(sim), opened(sim))
    expect(run.code).toBe(0)

    const posts = previewPosts(sim)
    expect(posts).toHaveLength(1)
    expect(posts[0]?.path).toBe('/v1/project/preview/proj_e2e')
    expect(JSON.parse(posts[0]?.body ?? '')).toEqual({ branch: BRANCH })
    expect(posts[0]?.headers.authorization).toBe(`Bearer ${QUICK['api-key']}`)
    expect(statusReads(sim).length).toBeGreaterThanOrEqual(1)

    expect(run.outputs['preview-url']).toBe(SITE)
    expect(run.outputs['preview-status']).toBe('ready')
    // Set as soon as the platform answered, then again at the end.
    expect(run.outputNames.filter((n) => n === 'preview-url').length).toBeGreaterThanOrEqual(1)
    expect(statusComment(sim)).toContain(`<tr><th>Preview</th><td><a href="${SITE}/">`)
    expect(statusComment(sim)).toContain('✅ ready')
    expect(run.summary).toContain('Preview')
    expect(run.summary).toContain(`href="${SITE}/"`)
    expect(lastCheck(sim)).toMatchObject({
      state: 'success',
      description: 'Docs pull request ready, preview ready'
    })
  })

  it('asks again on a follow-up run once the agent has pushed to the docs pull request', async () => {
    const sim = await start()
    const first = await runAction(inputs(sim), opened(sim))
    expect(first.code).toBe(0)
    expect(statusComment(sim)).toMatch(/ preview=[0-9a-f]{40} -->/)
    moveDocsHead(sim, MOVED)
    const second = await runAction(inputs(sim), pushedToPull(sim, NEW_CODE))
    expect(second.code).toBe(0)
    expect(second.outputs['job-id']).toBe(first.outputs['job-id'])
    const posts = previewPosts(sim)
    expect(posts).toHaveLength(2)
    expect(posts.map((p) => JSON.parse(p.body) as unknown)).toEqual([
      { branch: BRANCH },
      { branch: BRANCH }
    ])
    expect(second.outputs['preview-status']).toBe('ready')
    // The record now names the head this preview was built from.
    expect(statusComment(sim)).toContain(` preview=${MOVED} -->`)
  })

  it('asks nothing on a follow-up run after which the docs pull request is where it was', async () => {
    const sim = await start()
    expect((await runAction(inputs(sim), opened(sim))).code).toBe(0)
    const second = await runAction(inputs(sim), pushedToPull(sim, NEW_CODE))
    expect(second.code).toBe(0)
    // The follow-up went out; the preview request did not.
    expect(sim.requests.some((r) => r.method === 'POST' && r.path.endsWith('/message'))).toBe(true)
    expect(previewPosts(sim)).toHaveLength(1)
    expect(second.outputs['preview-status']).toBe('unchanged')
    expect(second.stdout).toContain('unchanged since the last preview')
  })

  it('says a failed build failed, quoting the platform, and keeps the check green', async () => {
    const sim = await start({
      preview: { outcome: 'failure', summary: 'Build failed: <b>broken</b> link @octocat' }
    })
    const run = await runAction(inputs(sim), opened(sim))
    expect(run.code).toBe(0)
    expect(run.outputs['preview-status']).toBe('failed')
    const comment = statusComment(sim)
    expect(comment).toContain('❌ failed: Build failed&#58; &lt;b&gt;broken&lt;/b&gt; link')
    expect(comment).not.toContain('<b>')
    expect(comment).not.toContain('@octocat')
    expect(lastCheck(sim)).toMatchObject({
      state: 'success',
      description: 'Docs pull request ready'
    })
  })
})

describe('the platform’s limits', () => {
  it('takes a 403 as a plan without previews: one notice, and no other request', async () => {
    const sim = await start({ preview: { available: false } })
    const run = await runAction(inputs(sim), opened(sim))
    expect(run.code).toBe(0)
    expect(previewPosts(sim)).toHaveLength(1)
    expect(statusReads(sim)).toHaveLength(0)
    const said = notices(run.stdout).filter((line) => line.includes('preview'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('preview: off')
    expect(run.outputs['preview-status']).toBe('unavailable')
    expect(run.outputs['preview-url']).toBe('')
    expect(lastCheck(sim)?.state).toBe('success')
  })

  it('waits as Retry-After asks when the timeout allows, then asks again', async () => {
    const sim = await start({
      faults: {
        preview: [{ status: 429, body: '{"error":"Rate limit"}', headers: { 'retry-after': '1' } }]
      }
    })
    const run = await runAction(inputs(sim), opened(sim))
    expect(run.code).toBe(0)
    expect(previewPosts(sim)).toHaveLength(2)
    expect(run.outputs['preview-status']).toBe('ready')
  })

  it('does not ask again when Retry-After passes the timeout, and says why', async () => {
    const sim = await start({
      faults: {
        preview: [
          { status: 429, body: '{"error":"Rate limit"}', headers: { 'retry-after': '120' } }
        ]
      }
    })
    const run = await runAction(inputs(sim), opened(sim))
    expect(run.code).toBe(0)
    expect(previewPosts(sim)).toHaveLength(1)
    expect(run.outputs['preview-status']).toBe('not-requested')
    expect(statusComment(sim)).toContain("rate limit asked to wait past this step's timeout")
    expect(run.stdout).toContain('asked to wait 2m')
  })

  it('never sends a request again after a 5xx, and says the preview may exist', async () => {
    const sim = await start({
      faults: { preview: [{ status: 503, body: '{"error":"upstream"}', perform: true }] }
    })
    const run = await runAction(inputs(sim), opened(sim))
    expect(run.code).toBe(0)
    expect(previewPosts(sim)).toHaveLength(1)
    expect(sim.previews.size).toBe(1)
    expect(run.outputs['preview-status']).toBe('uncertain')
    expect(run.stdout).toContain('may or may not be deploying')
    expect(lastCheck(sim)?.state).toBe('success')
  })
})

describe('a preview link outside the strict shape', () => {
  it.each([
    ['a query', 'https://acme.mintlify.app/?token=mint_simulator_key'],
    ['user info', 'https://user:hunter2@acme.mintlify.app/'],
    ['an encoded key', 'https://acme.mintlify.app/%6Dint_simulator_key']
  ])('with %s is written nowhere', async (_why, previewUrl) => {
    const sim = await start({ preview: { previewUrl } })
    const run = await runAction(inputs(sim), opened(sim))
    expect(run.code).toBe(0)
    expect(run.outputs['preview-url']).toBe('')
    for (const text of [run.stdout, run.summary, statusComment(sim), JSON.stringify(run.outputs)]) {
      expect(text).not.toContain(previewUrl)
      expect(text).not.toContain('hunter2')
    }
    expect(run.outputs['preview-status']).toBe('ready')
  })
})

describe('runs that ask for no preview', () => {
  it('preview: off', async () => {
    const sim = await start()
    const run = await runAction(inputs(sim, { preview: 'off' }), opened(sim))
    expect(run.code).toBe(0)
    expect(previewPosts(sim)).toHaveLength(0)
    expect(run.outputs['preview-status']).toBe('')
    expect(statusComment(sim)).not.toContain('Preview')
  })

  it('wait: false', async () => {
    const sim = await start()
    const run = await runAction(inputs(sim, { wait: 'false' }), opened(sim))
    expect(run.code).toBe(0)
    expect(previewPosts(sim)).toHaveLength(0)
  })

  it('a dry run says what it would request, and sends nothing', async () => {
    const sim = await start()
    const run = await runAction(inputs(sim, { 'dry-run': 'true' }), opened(sim))
    expect(run.code).toBe(0)
    // Mintlify gets nothing; GitHub is read as on any run.
    expect(sim.requests.filter((r) => /^\/v[12]\//.test(r.path))).toEqual([])
    expect(run.stdout).toContain('a preview deployment of its branch would be requested')
    expect(run.summary).toContain('a preview deployment of its branch would be requested')
  })

  it('a pull request GitHub does not show as open', async () => {
    const sim = await start({
      github: {
        pulls: {
          'acme/docs#101': {
            user: 'mintlify[bot]',
            head: { ref: BRANCH },
            merged_at: '2026-01-01T00:00:00Z'
          }
        }
      }
    })
    const run = await runAction(inputs(sim), opened(sim))
    expect(previewPosts(sim)).toHaveLength(0)
    expect(run.outputs['preview-status']).toBe('')
  })
})

describe('the docs are ready before the preview is', () => {
  /** A preview that stays in the platform's queue far longer than the step's time. */
  const stuck = () => start({ preview: { buildMs: 6 * 3_600_000 } })

  it('a stuck preview: the check says ready while the preview is still queued', async () => {
    const sim = await stuck()
    // How many times the preview had been read when the check, and the comment, first said ready.
    let readsAtReady: number | undefined
    let readsAtComment: number | undefined
    const run = await runAction(inputs(sim), {
      ...opened(sim),
      onSpawn: (child) => {
        const watch = setInterval(() => {
          if (readsAtReady === undefined && lastCheck(sim)?.state === 'success') {
            readsAtReady = statusReads(sim).length
          }
          if (
            readsAtComment === undefined &&
            statusComment(sim).includes('Docs pull request ready')
          ) {
            readsAtComment = statusReads(sim).length
          }
        }, 5)
        child.on('close', () => clearInterval(watch))
      }
    })
    expect(run.code).toBe(0)
    // The preview went on being followed after the check said ready: merging did not wait for it.
    expect(readsAtReady).toBeDefined()
    expect(statusReads(sim).length).toBeGreaterThan(readsAtReady ?? Infinity)
    expect(statusReads(sim).length).toBeGreaterThan(readsAtComment ?? Infinity)
    expect(lastCheck(sim)?.state).toBe('success')
    expect(run.outputs['preview-status']).toBe('building')
    expect(statusComment(sim)).toContain('⏳ building')
  })

  it('a cancel while the preview is followed: the job is still reported completed and ready', async () => {
    const sim = await stuck()
    const run = await runAction(inputs(sim, { timeout: '5m' }), {
      ...opened(sim),
      onSpawn: (child) => {
        // SIGTERM once the preview is being followed, as a runner stopping the step would.
        const watch = setInterval(() => {
          if (statusReads(sim).length === 0) return
          clearInterval(watch)
          child.kill('SIGTERM')
        }, 5)
        child.on('close', () => clearInterval(watch))
      }
    })
    expect(run.signal).toBeNull()
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe('https://github.com/acme/docs/pull/101')
    expect(lastCheck(sim)?.state).toBe('success')
    const comment = statusComment(sim)
    expect(comment).not.toMatch(/still running|keeps running/i)
    expect(run.stdout).not.toMatch(/still running|keeps running/i)
    expect(run.stdout).toContain('The docs job had ended when the run was stopped')
  })
})

describe('a run on a commit already documented (a re-run, a schedule)', () => {
  it('attaches to the job and asks the platform for nothing: no preview while the docs head is unchanged', async () => {
    const sim = await start()
    const first = await runAction(inputs(sim), opened(sim))
    expect(first.code).toBe(0)
    expect(previewPosts(sim)).toHaveLength(1)
    const head = / preview=([0-9a-f]{40}) -->/.exec(statusComment(sim))?.[1]
    expect(head).toBeDefined()
    sim.requests.length = 0

    const again = await runAction(inputs(sim), opened(sim, { GITHUB_RUN_ID: '4243' }))
    expect(again.code).toBe(0)
    expect(again.outputs['job-id']).toBe(first.outputs['job-id'])
    // Only reads of the job: no create, no message, no preview.
    const sent = sim.requests.filter((r) => /^\/v[12]\//.test(r.path))
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.filter((r) => r.method !== 'GET')).toEqual([])
    expect(previewPosts(sim)).toHaveLength(0)
    expect(statusReads(sim)).toHaveLength(0)
    expect(again.stdout).toContain('unchanged since the last preview')
    expect(again.outputs['preview-status']).toBe('unchanged')
    expect(again.outputs['preview-url']).toBe('')
    // The record keeps the head, so the next run is as quiet; the comment says why.
    expect(statusComment(sim)).toContain(` preview=${head} -->`)
    expect(statusComment(sim)).toContain('unchanged since the last preview')
    expect(lastCheck(sim)).toMatchObject({
      state: 'success',
      description: 'Docs pull request ready'
    })

    const third = await runAction(inputs(sim), opened(sim, { GITHUB_RUN_ID: '4244' }))
    expect(third.code).toBe(0)
    expect(previewPosts(sim)).toHaveLength(0)
  })

  it('asks again once the docs pull request’s head has moved', async () => {
    const sim = await start()
    expect((await runAction(inputs(sim), opened(sim))).code).toBe(0)
    moveDocsHead(sim, MOVED)
    const again = await runAction(inputs(sim), opened(sim, { GITHUB_RUN_ID: '4243' }))
    expect(again.code).toBe(0)
    const posts = previewPosts(sim)
    expect(posts).toHaveLength(2)
    expect(JSON.parse(posts[1]?.body ?? '')).toEqual({ branch: BRANCH })
    expect(again.outputs['preview-status']).toBe('ready')
    expect(statusComment(sim)).toContain(` preview=${MOVED} -->`)
  })

  it('asks again when the last request was refused, since no preview was built from it', async () => {
    const sim = await start({
      faults: {
        preview: [
          { status: 429, body: '{"error":"Rate limit"}', headers: { 'retry-after': '120' } }
        ]
      }
    })
    const first = await runAction(inputs(sim), opened(sim))
    expect(first.outputs['preview-status']).toBe('not-requested')
    expect(statusComment(sim)).not.toContain(' preview=')
    const again = await runAction(inputs(sim), opened(sim, { GITHUB_RUN_ID: '4243' }))
    expect(again.code).toBe(0)
    expect(previewPosts(sim)).toHaveLength(2)
    expect(again.outputs['preview-status']).toBe('ready')
  })
})
